/**
 * Ed25519 public keys nobody should trust, and the signatures anyone can make for them. Written from
 * the curve's published facts with node:crypto and BigInt only, no code of ours:
 * - the 8 points of small order (libsodium's `has_small_order` blocklist lists their y; each but
 *   y = ±1 comes in both signs of x);
 * - non-canonical encodings: y ≥ p, and x = 0 with the sign bit set;
 * - a point with a small-order component (a real key plus the point (0, -1) of order 2);
 * - a y that is no point's.
 * For a key A of small order, (R, s = 0) verifies whenever R = -h·A, h = SHA-512(R ‖ A ‖ M):
 * `forgedSignature` tries every small-order R and lets node:crypto say which one works.
 * And for a sound key, the one odd signature its owner can make: `identityRSignature`.
 */
import { createHash, createPublicKey, generateKeyPairSync, verify, type KeyObject } from "node:crypto";

const P = (1n << 255n) - 19n;

/** The 8 points of small order, canonically encoded (hex of the 32 bytes). */
export const SMALL_ORDER_POINTS = [
  "0100000000000000000000000000000000000000000000000000000000000000", // the identity, order 1
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // (0, -1), order 2
  "0000000000000000000000000000000000000000000000000000000000000000", // (√-1, 0), order 4
  "0000000000000000000000000000000000000000000000000000000000000080", // (-√-1, 0), order 4
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", // order 8
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", // order 8
];

/** Encodings node:crypto reads as a point although RFC 8032 decoding refuses them. */
export const NON_CANONICAL_POINTS = [
  "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p, read as y = 0 (order 4)
  "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p + 1, read as the identity
  "0100000000000000000000000000000000000000000000000000000000000080", // the identity with the sign bit set
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", // (0, -1) with the sign bit set
];

/** y = 2 has no x on the curve. */
export const NOT_ON_CURVE = "0200000000000000000000000000000000000000000000000000000000000000";

const le = (b: Uint8Array) => b.reduceRight((n, byte) => (n << 8n) | BigInt(byte), 0n);

/** A fresh key plus (0, -1): (x, y) + (0, -1) = (-x, -y), so y becomes p - y and the sign of x flips. */
export function mixedOrderKey(): Buffer {
  const raw = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(12);
  const y = P - (le(raw) & ((1n << 255n) - 1n));
  const out = Buffer.from(y.toString(16).padStart(64, "0"), "hex").reverse();
  out[31] |= (raw[31] & 0x80) ^ 0x80;
  return out;
}

/** Every weak key, named. */
export function weakKeys(): [string, Buffer][] {
  return [
    ...SMALL_ORDER_POINTS.map((h, i): [string, Buffer] => [`small-order point ${i} (${h.slice(0, 8)}…${h.slice(-2)})`, Buffer.from(h, "hex")]),
    ...NON_CANONICAL_POINTS.map((h, i): [string, Buffer] => [`non-canonical encoding ${i} (${h.slice(0, 8)}…${h.slice(-2)})`, Buffer.from(h, "hex")]),
    ["a key with a small-order component", mixedOrderKey()],
    ["a y of no point", Buffer.from(NOT_ON_CURVE, "hex")],
  ];
}

const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
export const spkiOf = (raw: Uint8Array) => Buffer.concat([SPKI_PREFIX, raw]);

/** A signature node:crypto verifies for `message` under `raw` without any private key, if one of the small-order R works. */
export function forgedSignature(raw: Uint8Array, message: Uint8Array): Buffer | undefined {
  const key = createPublicKey({ key: spkiOf(raw), format: "der", type: "spki" });
  for (const r of SMALL_ORDER_POINTS) {
    const signature = Buffer.concat([Buffer.from(r, "hex"), Buffer.alloc(32)]);
    if (verify(null, message, key, signature)) return signature;
  }
  return undefined;
}

/** The order of Ed25519's prime subgroup. */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
const littleEndian = (b: Uint8Array) => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);

/**
 * An Ed25519 signature of `message` whose R is the identity, made with the secret scalar a of
 * `privateKey` (RFC 8032 §5.1.5): s = k·a mod L with k = SHA-512(R ‖ A ‖ M), so s·B − k·A is the
 * identity. OpenSSL (cofactorless, comparing encodings) verifies it; libsodium refuses every
 * small-order R. No honest signer makes one: R is r·B for a secret nonce r.
 */
export function identityRSignature(privateKey: KeyObject, message: Uint8Array): Buffer {
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(-32);
  const raw = createPublicKey(privateKey).export({ format: "der", type: "spki" }).subarray(SPKI_PREFIX.length);
  const h = createHash("sha512").update(seed).digest();
  h[0] &= 248;
  h[31] = (h[31] & 127) | 64;
  const a = littleEndian(h.subarray(0, 32));
  const R = Buffer.alloc(32);
  R[0] = 1;
  const k = littleEndian(createHash("sha512").update(R).update(raw).update(message).digest()) % L;
  let s = (k * a) % L;
  const S = Buffer.alloc(32);
  for (let i = 0; i < 32; i++, s >>= 8n) S[i] = Number(s & 0xffn);
  return Buffer.concat([R, S]);
}
