/**
 * The signature check of an externally signed execute (Canton's
 * `InteractiveSubmission.verifySignatures`, reference §3.6): every acting party must sign the
 * 32-byte prepared-transaction hash with keys of its party-to-key mapping, at least `threshold` of
 * them distinct and valid. Signatures of parties that do not act are ignored. The messages are
 * Canton's, including the server-computed hash a client can compare with what it signed.
 */
import { toHex } from "./canton-hash.js";
import type { SignatureBy } from "./onboarding-check.js";
import { verifySignatureOffLoop } from "./signature.js";
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
 * Rejects with `ExecuteSignaturesRejected` unless every party of `actAs` authorized `hash`.
 * `keysOf` answers undefined for a party with no signing keys (not external). The checks run off
 * the event loop, all at once; the first party that falls short (in `actAs` order) is reported.
 */
export async function verifyExecuteSignatures(hash: Uint8Array, actAs: readonly string[], given: readonly PartySignaturesOf[], keysOf: (party: string) => PartyKeys | undefined): Promise<void> {
  const byParty = new Map<string, SignatureBy[]>();
  for (const p of given) byParty.set(p.party, [...(byParty.get(p.party) ?? []), ...p.signatures]);
  const unsigned = actAs.filter((p) => (byParty.get(p) ?? []).length === 0);
  if (unsigned.length > 0) throw new ExecuteSignaturesRejected(`The following actAs parties did not provide an external signature: ${unsigned.join(", ")}`);
  // Every signature is sent to be checked at once; the verdicts are read party by party, in order.
  const checks = actAs.map((party) => checkOf(party, byParty.get(party)!, keysOf(party), hash));
  for (const check of checks) {
    if (check instanceof ExecuteSignaturesRejected) throw check;
    const valid = new Set<string>();
    let invalid = 0;
    (await check.verdicts).forEach((ok, i) => (ok ? valid.add(check.signatures[i].signedBy) : invalid++));
    if (valid.size < check.threshold) {
      throw new ExecuteSignaturesRejected(
        `Received ${valid.size} valid signatures from distinct keys (${invalid} invalid), but expected at least ${check.threshold} valid for ${check.party}. Transaction hash to be signed: ${toHex(hash)}`,
      );
    }
  }
}

interface PartyCheck {
  readonly party: string;
  readonly threshold: number;
  readonly signatures: readonly SignatureBy[];
  readonly verdicts: Promise<boolean[]>;
}

function checkOf(party: string, signatures: readonly SignatureBy[], keys: PartyKeys | undefined, hash: Uint8Array): PartyCheck | ExecuteSignaturesRejected {
  if (!keys) return new ExecuteSignaturesRejected(`Party ${party} has no signing keys on this participant: it is not an external party`);
  // One signature per key is all a party can use; more would only buy checks on the signature
  // worker (shared by every execute) for a request that can be no more valid for it.
  if (signatures.length > keys.keys.size) {
    return new ExecuteSignaturesRejected(`Party ${party} provided ${signatures.length} signatures but has only ${keys.keys.size} signing keys`);
  }
  const unknown = signatures.find((s) => !keys.keys.has(s.signedBy));
  if (unknown) return new ExecuteSignaturesRejected(`Signing key ${unknown.signedBy} is not a valid key for ${party}`);
  const verdicts = Promise.all(signatures.map((s) => verdictOf(keys.keys.get(s.signedBy)!, hash, s)));
  return { party, threshold: keys.threshold, signatures, verdicts };
}

/**
 * Whether one signature verifies; one that cannot be checked (wrong length or format) does not.
 * Never rejects: verdicts of parties after one that fell short are not awaited.
 */
async function verdictOf(key: SigningKey, hash: Uint8Array, s: SignatureBy): Promise<boolean> {
  return verifySignatureOffLoop(key, hash, s).catch(() => false);
}
