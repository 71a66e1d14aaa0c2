/**
 * The signature check of an externally signed execute (Canton's
 * `InteractiveSubmission.verifySignatures`, reference §3.6): every acting party must sign the
 * 32-byte prepared-transaction hash with keys of its party-to-key mapping, at least `threshold` of
 * them distinct and valid. Signatures of parties that do not act are ignored. The messages are
 * Canton's, including the server-computed hash a client can compare with what it signed.
 */
import { toHex } from "./canton-hash.js";
import type { SignatureBy } from "./onboarding-check.js";
import { InvalidSignatureInput, verifySignature } from "./signature.js";
import type { SigningKey } from "./signing-key.js";

/** The keys that authorize a party's transactions, by fingerprint, and how many must sign. */
export interface PartyKeys {
  readonly threshold: number;
  readonly keys: ReadonlyMap<string, SigningKey>;
}

export interface PartySignaturesOf {
  readonly party: string;
  readonly signatures: readonly SignatureBy[];
}

export class ExecuteSignaturesRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExecuteSignaturesRejected";
  }
}

/**
 * Throws `ExecuteSignaturesRejected` unless every party of `actAs` authorized `hash`.
 * `keysOf` answers undefined for a party with no signing keys (not external).
 */
export function verifyExecuteSignatures(hash: Uint8Array, actAs: readonly string[], given: readonly PartySignaturesOf[], keysOf: (party: string) => PartyKeys | undefined): void {
  const byParty = new Map<string, SignatureBy[]>();
  for (const p of given) byParty.set(p.party, [...(byParty.get(p.party) ?? []), ...p.signatures]);
  const unsigned = actAs.filter((p) => (byParty.get(p) ?? []).length === 0);
  if (unsigned.length > 0) throw new ExecuteSignaturesRejected(`The following actAs parties did not provide an external signature: ${unsigned.join(", ")}`);
  for (const party of actAs) {
    const keys = keysOf(party);
    if (!keys) throw new ExecuteSignaturesRejected(`Party ${party} has no signing keys on this participant: it is not an external party`);
    const valid = new Set<string>();
    let invalid = 0;
    for (const s of byParty.get(party)!) {
      const key = keys.keys.get(s.signedBy);
      if (!key) throw new ExecuteSignaturesRejected(`Signing key ${s.signedBy} is not a valid key for ${party}`);
      let ok = false;
      try {
        ok = verifySignature(key, hash, s);
      } catch (e) {
        if (!(e instanceof InvalidSignatureInput)) throw e;
      }
      if (ok) valid.add(s.signedBy);
      else invalid++;
    }
    if (valid.size < keys.threshold) {
      throw new ExecuteSignaturesRejected(
        `Received ${valid.size} valid signatures from distinct keys (${invalid} invalid), but expected at least ${keys.threshold} valid for ${party}. Transaction hash to be signed: ${toHex(hash)}`,
      );
    }
  }
}
