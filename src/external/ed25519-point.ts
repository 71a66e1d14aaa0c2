/**
 * Which 32-byte Ed25519 public keys are worth trusting, decided as Canton does (CryptoKeyValidation
 * calls BouncyCastle's `Ed25519.validatePublicKeyFull`): the encoding is canonical, it decodes to a
 * point of the curve, and that point lies in the prime-order subgroup and is not the identity.
 *
 * node:crypto (OpenSSL) imports any 32 bytes and verifies cofactorless without looking at the key.
 * Under a key A of small order, the signature (R, s = 0) verifies whenever R = -h·A, and one of the
 * 8 small-order points R does so for most messages (for the identity, R = identity always does):
 * anyone can sign for such a key. OpenSSL also reads y ≥ p modulo p, so y = p + 1 is the identity
 * again. A key with a small-order component cannot be forged for like that, but cofactored and
 * cofactorless verifiers disagree about its signatures, and Canton refuses it too.
 *
 * Plain BigInt arithmetic (RFC 8032 §5.1): about a millisecond per key, paid once per key at
 * onboarding and once per process in the key cache.
 */

const P = (1n << 255n) - 19n;
/** The order of the prime subgroup. */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

const mod = (a: bigint) => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

function pow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

const D = mod(-121665n * pow(121666n, P - 2n));
const D2 = mod(2n * D);
const SQRT_M1 = pow(2n, (P - 1n) / 4n);

/** Extended homogeneous coordinates: x = X/Z, y = Y/Z, xy = T/Z. */
interface Point {
  readonly X: bigint;
  readonly Y: bigint;
  readonly Z: bigint;
  readonly T: bigint;
}

const IDENTITY: Point = { X: 0n, Y: 1n, Z: 1n, T: 0n };

// RFC 8032 §5.1.4's formulas for a = -1: complete, so they hold for small-order points too.
function add(p: Point, q: Point): Point {
  const a = mod((p.Y - p.X) * (q.Y - q.X));
  const b = mod((p.Y + p.X) * (q.Y + q.X));
  const c = mod(p.T * D2 * q.T);
  const d = mod(2n * p.Z * q.Z);
  const [e, f, g, h] = [b - a, d - c, d + c, b + a];
  return { X: mod(e * f), Y: mod(g * h), T: mod(e * h), Z: mod(f * g) };
}

function double(p: Point): Point {
  const a = mod(p.X * p.X);
  const b = mod(p.Y * p.Y);
  const c = mod(2n * p.Z * p.Z);
  const h = a + b;
  const e = h - mod((p.X + p.Y) * (p.X + p.Y));
  const g = a - b;
  const f = c + g;
  return { X: mod(e * f), Y: mod(g * h), T: mod(e * h), Z: mod(f * g) };
}

function multiply(p: Point, n: bigint): Point {
  let result = IDENTITY;
  for (let i = BigInt(n.toString(2).length - 1); i >= 0n; i--) {
    result = double(result);
    if ((n >> i) & 1n) result = add(result, p);
  }
  return result;
}

const isIdentity = (p: Point) => p.X === 0n && p.Y === p.Z;

/** x for y and the sign bit (RFC 8032 §5.1.3 step 2–4), undefined when y is no point's. */
function recoverX(y: bigint, sign: number): bigint | undefined {
  const u = mod(y * y - 1n);
  const v = mod(D * y * y + 1n);
  let x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n));
  const vx2 = mod(v * x * x);
  if (vx2 === mod(-u)) x = mod(x * SQRT_M1);
  else if (vx2 !== u) return undefined;
  return Number(x & 1n) === sign ? x : mod(-x);
}

/** Why `raw` (a 32-byte Ed25519 public key) must not be trusted, or undefined when it may. */
export function ed25519PointProblem(raw: Uint8Array): string | undefined {
  const sign = raw[31] >> 7;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? raw[i] & 0x7f : raw[i]);
  if (y >= P) return "its encoding is not canonical (y is not below 2^255 - 19)";
  const x = recoverX(y, sign);
  if (x === undefined) return "it is not a point of the curve";
  if (x === 0n && sign === 1) return "its encoding is not canonical (x = 0 with the sign bit set)";
  const point: Point = { X: x, Y: y, Z: 1n, T: mod(x * y) };
  if (isIdentity(double(double(double(point))))) return "it is a point of small order, for which anyone can forge signatures";
  if (!isIdentity(multiply(point, L))) return "it is not in the prime-order subgroup (it has a small-order component)";
  return undefined;
}

/**
 * Whether an Ed25519 signature's R is the identity point in its canonical encoding (y = 1, x = 0).
 * OpenSSL verifies cofactorless: it accepts when the encoding of s·B − k·A equals R's. For a key
 * of the prime-order subgroup (the only keys onboarding takes) that point is of small order only
 * when it is the identity, so this is the one small-order R OpenSSL can accept, in a signature
 * only the key's owner can make (s = k·a). libsodium refuses every small-order R; refusing this
 * one before OpenSSL makes both libraries accept the same signatures.
 */
export function hasIdentityR(signature: Uint8Array): boolean {
  if (signature.length < 32 || signature[0] !== 1) return false;
  for (let i = 1; i < 32; i++) if (signature[i] !== 0) return false;
  return true;
}
