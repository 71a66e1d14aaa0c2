/**
 * Key fingerprints: `1220` + hex(SHA-256(int32be(12) || data)), Canton's `PublicKeyFingerprint`
 * hash of the key. The fingerprint is the key's id (`signed_by`) and an external party's namespace.
 */
import { cantonHash, HashPurpose, toHex } from "./canton-hash.js";
import type { SigningKey } from "./signing-key.js";

/** 68 lowercase hex characters starting `1220`. */
export type Fingerprint = string & { readonly __brand: "Fingerprint" };

export function fingerprintOf(key: Pick<SigningKey, "fingerprintData">): Fingerprint {
  return toHex(cantonHash(HashPurpose.PublicKeyFingerprint, key.fingerprintData)) as Fingerprint;
}

export const isFingerprint = (s: string): s is Fingerprint => /^1220[0-9a-f]{64}$/.test(s);
