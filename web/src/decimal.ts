/**
 * Exact decimal strings for amounts (B.4): no float ever touches an amount. A decimal is a bigint
 * of units and a scale; multiplication is exact, division (CC per USD) half-even at Daml's scale 10.
 */

interface Dec {
  readonly units: bigint;
  readonly scale: number;
}

const pattern = /^([+-])?(\d+)(?:\.(\d*))?$/;

export function parseDecimal(s: string): Dec {
  const m = pattern.exec(s.trim());
  if (!m) throw new Error(`not a decimal: ${s}`);
  const frac = m[3] ?? "";
  const units = BigInt(m[2]! + frac);
  return { units: m[1] === "-" ? -units : units, scale: frac.length };
}

export function isDecimal(s: string): boolean {
  return pattern.test(s.trim());
}

function toPlain({ units, scale }: Dec): string {
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  return `${neg ? "-" : ""}${int}${frac ? "." + frac : ""}`;
}

/** a × b, exact (the scales add). */
export function mulDecimal(a: string, b: string): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return toPlain({ units: x.units * y.units, scale: x.scale + y.scale });
}

/** a ÷ b at `scale` decimals, half-even (Daml's Numeric 10 division). */
export function divDecimal(a: string, b: string, scale = 10): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (y.units === 0n) throw new Error("division by zero");
  // a/b = (xu/10^xs) / (yu/10^ys); scaled by 10^scale: xu·10^(ys+scale) / (yu·10^xs)
  let num = x.units * 10n ** BigInt(y.scale + scale);
  let den = y.units * 10n ** BigInt(x.scale);
  if (den < 0n) (num = -num), (den = -den);
  let q = num / den;
  const r = num % den;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice > den || (twice === den && q % 2n !== 0n)) q += num < 0n ? -1n : 1n;
  return toPlain({ units: q, scale });
}

export function isZero(s: string): boolean {
  return parseDecimal(s).units === 0n;
}

/** B.4: grouping separators, full precision, trailing zeros dropped, no rounding: "1,234.5" (an explicit "+" stays). */
export function formatDecimal(s: string): string {
  const plain = (s.trim().startsWith("+") ? "+" : "") + toPlain(parseDecimal(s));
  const sign = /^[+-]/.test(plain) ? plain[0]! : "";
  const [int, frac] = plain.slice(sign.length).split(".");
  const grouped = int!.replace(/\B(?=(\d{3})+$)/g, ",");
  return `${sign}${grouped}${frac ? "." + frac : ""}`;
}

/** "1,234.5 CC"; `--.--` while unknown (B.4's undefined amount). */
export function formatCc(s: string | undefined): string {
  return s === undefined ? "--.-- CC" : `${formatDecimal(s)} CC`;
}

export function formatUsd(s: string | undefined): string {
  return s === undefined ? "--.-- USD" : `${formatDecimal(s)} USD`;
}

/** CC × price (USD per CC), exact. */
export function ccToUsd(cc: string, price: string): string {
  return mulDecimal(cc, price);
}

/** a + b, exact. */
export function addDecimal(a: string, b: string): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  return toPlain({ units: x.units * 10n ** BigInt(scale - x.scale) + y.units * 10n ** BigInt(scale - y.scale), scale });
}
