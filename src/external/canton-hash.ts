/**
 * Canton's `Hash.digest(purpose, bytes)`: SHA-256 over a 4-byte big-endian hash purpose and the
 * bytes (neither length-prefixed), carried as a multihash `0x12 0x20 || digest` (34 bytes, hex
 * `1220…`). Fingerprints, topology-transaction hashes and the multi-transaction hash are all this.
 */
import * as crypto from "node:crypto";
import { createHash } from "node:crypto";

/** Canton `HashPurpose` ids that external parties touch. */
export const HashPurpose = {
  TopologyTransactionSignature: 11,
  PublicKeyFingerprint: 12,
  PreparedSubmission: 48,
  MultiTopologyTransaction: 55,
} as const;
export type HashPurpose = (typeof HashPurpose)[keyof typeof HashPurpose];

/** Varint code of SHA-256 (0x12) and its digest length (0x20): the multihash header. */
const MULTIHASH_SHA256 = Uint8Array.of(0x12, 0x20);

/** node:crypto's one-shot digest (Node >= 20.12): no Hash object per call. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: "buffer") => Buffer }).hash;

export function sha256(...parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && oneShot) return oneShot("sha256", parts[0], "buffer");
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
}

export function int32be(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n | 0, false);
  return b;
}

/** The 34-byte multihash of `bytes` under `purpose`. */
export function cantonHash(purpose: HashPurpose, bytes: Uint8Array): Uint8Array {
  return concatBytes(MULTIHASH_SHA256, sha256(int32be(purpose), bytes));
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const toHex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString("hex");
