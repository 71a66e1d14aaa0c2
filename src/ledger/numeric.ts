/**
 * Daml `Numeric 10` (the `Decimal` of Canton Coin amounts) as an exact fixed-point value.
 *
 * Amounts are integers of 10^-10 units held in a bigint, so addition, subtraction and comparison
 * are exact; multiplication and division round half-even back to scale 10, as Daml does.
 */
export const NUMERIC_SCALE = 10;
const SCALE_FACTOR = 10n ** BigInt(NUMERIC_SCALE);
/** Daml Numeric has 38 significant digits; at scale 10 that leaves 28 integer digits. */
const MAX_UNITS = 10n ** 38n - 1n;

/**
 * Daml's decimal grammar, strictly: an optional minus, digits, and a fraction only with digits on
 * both sides of the point. No spaces, "+", exponents, "5." or ".5" (Canton and Splice refuse them).
 */
const NUMERIC_TEXT = /^(-)?(\d+)(?:\.(\d+))?$/;

export class NumericError extends Error {}

/**
 * Daml's ArithmeticError: a result outside `Numeric 10`'s range. It fails the transaction that
 * computes it (the interpreter maps it to UNHANDLED_EXCEPTION); reads never raise it.
 */
export class NumericOverflowError extends NumericError {}

export class Numeric {
  /** `checked`: Daml arithmetic refuses results outside the range; read-side sums (`plus`) do not. */
  private constructor(
    readonly units: bigint,
    checked = true,
  ) {
    if (checked && !withinRange(units)) {
      throw new NumericOverflowError("numeric overflow: more than 28 integer digits");
    }
  }

  static readonly zero = new Numeric(0n);

  /**
   * Read-side sum of any number of values, exact at any size and never throwing. The ledger holds
   * every single amount within range but not their sum (many holdings of one party), and a read —
   * a balance, an input selection, a history entry — must answer over any state the ledger can hold.
   */
  static total(xs: Iterable<Numeric>): Numeric {
    let units = 0n;
    for (const x of xs) units += x.units;
    return new Numeric(units, false);
  }

  /** Read-side addition: never throws (see `total`). Ledger code uses `add`, which overflows as Daml does. */
  plus(o: Numeric): Numeric {
    return new Numeric(this.units + o.units, false);
  }
  /** Read-side subtraction: never throws (see `total`). */
  minus(o: Numeric): Numeric {
    return new Numeric(this.units - o.units, false);
  }
  /** Whether the value fits `Numeric 10` (a read-side sum may not). */
  isWithinRange(): boolean {
    return withinRange(this.units);
  }

  static fromUnits(units: bigint): Numeric {
    return new Numeric(units);
  }

  /** Parses a decimal string (or a JS number, which Daml-LF JSON also accepts) at scale <= 10. */
  static parse(input: string | number): Numeric {
    const text = typeof input === "number" ? numberToPlainString(input) : input;
    const m = NUMERIC_TEXT.exec(text);
    if (!m) throw new NumericError(`not a decimal number: ${JSON.stringify(input)}`);
    const [, sign, whole, fraction = ""] = m;
    // Trailing zeros do not count toward the scale; one BigInt of all the digits (amounts are
    // parsed and printed several times per transfer).
    let digits = fraction.length;
    while (digits > 0 && fraction.charCodeAt(digits - 1) === 48) digits--;
    if (digits > NUMERIC_SCALE) {
      throw new NumericError(`more than ${NUMERIC_SCALE} decimal places: ${text}`);
    }
    const units = BigInt(whole + fraction.slice(0, digits).padEnd(NUMERIC_SCALE, "0"));
    return new Numeric(sign === "-" ? -units : units);
  }

  static of(input: string | number | Numeric): Numeric {
    return input instanceof Numeric ? input : Numeric.parse(input);
  }

  add(o: Numeric): Numeric {
    return new Numeric(this.units + o.units);
  }
  sub(o: Numeric): Numeric {
    return new Numeric(this.units - o.units);
  }
  mul(o: Numeric): Numeric {
    return new Numeric(divRoundHalfEven(this.units * o.units, SCALE_FACTOR));
  }
  div(o: Numeric): Numeric {
    if (o.units === 0n) throw new NumericError("division by zero");
    return new Numeric(divRoundHalfEven(this.units * SCALE_FACTOR, o.units));
  }
  neg(): Numeric {
    return new Numeric(-this.units);
  }
  mulInt(n: bigint): Numeric {
    return new Numeric(this.units * n);
  }
  cmp(o: Numeric): -1 | 0 | 1 {
    return this.units < o.units ? -1 : this.units > o.units ? 1 : 0;
  }
  eq(o: Numeric): boolean {
    return this.units === o.units;
  }
  lt(o: Numeric): boolean {
    return this.units < o.units;
  }
  lte(o: Numeric): boolean {
    return this.units <= o.units;
  }
  gt(o: Numeric): boolean {
    return this.units > o.units;
  }
  gte(o: Numeric): boolean {
    return this.units >= o.units;
  }
  isZero(): boolean {
    return this.units === 0n;
  }
  isNegative(): boolean {
    return this.units < 0n;
  }
  isPositive(): boolean {
    return this.units > 0n;
  }
  min(o: Numeric): Numeric {
    return this.lte(o) ? this : o;
  }
  max(o: Numeric): Numeric {
    return this.gte(o) ? this : o;
  }
  /** Smallest integer >= this value. */
  ceilInt(): bigint {
    const q = this.units / SCALE_FACTOR;
    return this.units > 0n && this.units % SCALE_FACTOR !== 0n ? q + 1n : q;
  }

  /** Canonical Daml-LF JSON form: always all 10 decimals, as Canton prints `Numeric 10`. */
  toString(): string {
    const neg = this.units < 0n;
    const digits = (neg ? -this.units : this.units).toString();
    const text =
      digits.length > NUMERIC_SCALE ? `${digits.slice(0, -NUMERIC_SCALE)}.${digits.slice(-NUMERIC_SCALE)}` : `0.${digits.padStart(NUMERIC_SCALE, "0")}`;
    return neg ? `-${text}` : text;
  }
  toJSON(): string {
    return this.toString();
  }
}

function withinRange(units: bigint): boolean {
  return units <= MAX_UNITS && units >= -MAX_UNITS;
}

function divRoundHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  let q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice > d || (twice === d && q % 2n !== 0n)) q += n < 0n ? -1n : 1n;
  return q;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) throw new NumericError(`not a finite number: ${n}`);
  // toFixed avoids exponent notation; 10 places is the scale we accept anyway.
  const s = n.toFixed(NUMERIC_SCALE);
  return Number(s) === n ? s : n.toString();
}
