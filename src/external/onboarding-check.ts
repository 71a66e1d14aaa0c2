/**
 * What AllocateExternalParty checks before a party exists: the submitted bytes are the three
 * onboarding transactions of one party hosted here (namespace delegation to its key, hosting on
 * this participant, its Daml signing keys), each serial-1 ADD_REPLACE, and every signature a
 * transaction needs verifies — over the transaction's own hash or over the multi-hash of all of
 * them. The namespace key signs all three; every key of the party-to-key mapping also signs it
 * (proof of ownership). Failures are `OnboardingRejected`, classified as Canton's topology errors.
 */
import { CryptoKeyFormat } from "./crypto-enums.js";
import { partyHintProblem } from "./external-party-id.js";
import { fingerprintOf, type Fingerprint } from "./fingerprint.js";
import { MalformedProto } from "./proto-bytes.js";
import { InvalidSignatureInput, verifySignature, type ClientSignature } from "./signature.js";
import { InvalidSigningKey, parseSigningPublicKey, type SigningKey } from "./signing-key.js";
import {
  multiTransactionHash,
  ParticipantPermission,
  readTopologyTransaction,
  topologyTransactionHash,
  type ReadTopologyTransaction,
  type TopologyKey,
  type TopologyMapping,
} from "./topology-transactions.js";

export interface SignatureBy extends ClientSignature {
  readonly signedBy: string;
}

export interface OnboardingRequest {
  readonly transactions: readonly { readonly bytes: Uint8Array; readonly signatures: readonly SignatureBy[] }[];
  readonly multiHashSignatures: readonly SignatureBy[];
  /** This participant's UID: the only one that may host the party. */
  readonly participantUid: string;
}

export interface OnboardedParty {
  readonly partyId: string;
  readonly namespace: Fingerprint;
  readonly permission: typeof ParticipantPermission.Confirmation | typeof ParticipantPermission.Observation;
  /** Signatures of distinct keys an execute needs. */
  readonly threshold: number;
  readonly signingKeys: readonly SigningKey[];
}

/** `malformed`: not a topology transaction; `invalid-mapping`: not an onboarding we host; `invalid-signature`: a signature that does not verify; `unauthorized`: a signature missing. */
export type OnboardingRejection = "malformed" | "invalid-mapping" | "invalid-signature" | "unauthorized";

export class OnboardingRejected extends Error {
  constructor(
    readonly kind: OnboardingRejection,
    message: string,
  ) {
    super(message);
    this.name = "OnboardingRejected";
  }
}

function reject(kind: OnboardingRejection, message: string): never {
  throw new OnboardingRejected(kind, message);
}

/** `crypto.v30.CryptoKeyFormat` of topology keys, as the Ledger API numbers them. */
const V30_TO_LEDGER_FORMAT: Readonly<Record<number, number>> = { 2: CryptoKeyFormat.Der, 3: CryptoKeyFormat.Raw, 4: CryptoKeyFormat.DerX509SubjectPublicKeyInfo };

function keyOf(k: TopologyKey, where: string): SigningKey {
  try {
    return parseSigningPublicKey(V30_TO_LEDGER_FORMAT[k.format] ?? CryptoKeyFormat.Unspecified, k.publicKey, k.keySpec);
  } catch (e) {
    if (e instanceof InvalidSigningKey) return reject("invalid-mapping", `${where}: ${e.message}`);
    throw e;
  }
}

type Kind = TopologyMapping["kind"];
type MappingOf<K extends Kind> = Extract<TopologyMapping, { kind: K }>;

function only<K extends Kind>(txs: readonly ReadTopologyTransaction[], kind: K): { index: number; mapping: MappingOf<K> } {
  const found = txs.map((t, index) => ({ index, mapping: t.mapping })).filter((t) => t.mapping.kind === kind);
  if (found.length !== 1) reject("invalid-mapping", `expected exactly one ${kind} transaction, got ${found.length}`);
  return found[0] as { index: number; mapping: MappingOf<K> };
}

export function checkOnboarding(req: OnboardingRequest): OnboardedParty {
  if (req.transactions.length === 0) reject("invalid-mapping", "no onboarding transactions");
  const read = req.transactions.map((t, i) => {
    try {
      return readTopologyTransaction(t.bytes);
    } catch (e) {
      if (e instanceof MalformedProto || e instanceof TypeError) return reject("malformed", `onboarding_transactions[${i}] is not a topology transaction: ${e.message}`);
      throw e;
    }
  });
  read.forEach((t, i) => {
    if (t.operation !== 1 || t.serial !== 1) reject("invalid-mapping", `onboarding_transactions[${i}] must be a serial-1 ADD_REPLACE (operation ${t.operation}, serial ${t.serial})`);
  });
  const ns = only(read, "namespace-delegation");
  const p2p = only(read, "party-to-participant");
  const p2k = only(read, "party-to-key-mapping");
  if (read.length !== 3) reject("invalid-mapping", `expected the 3 onboarding transactions of one party, got ${read.length}`);

  const namespaceKey = keyOf(ns.mapping.targetKey, "the namespace delegation's key");
  const namespace = fingerprintOf(namespaceKey);
  if (ns.mapping.namespace !== namespace) reject("invalid-mapping", `the namespace ${ns.mapping.namespace} is not the fingerprint ${namespace} of the delegated key (only root delegations are supported)`);

  const party = p2p.mapping.party;
  const [hint, suffix, ...rest] = party.split("::");
  if (suffix !== namespace || rest.length > 0) reject("invalid-mapping", `party ${party} is not in namespace ${namespace}`);
  const hintProblem = partyHintProblem(hint);
  if (hintProblem) reject("invalid-mapping", `party ${party}: ${hintProblem}`);
  const hosts = p2p.mapping.participants;
  if (hosts.length !== 1 || hosts[0].uid !== req.participantUid) reject("invalid-mapping", `party ${party} must be hosted by exactly this participant (${req.participantUid}), not ${hosts.map((h) => h.uid).join(", ") || "none"}`);
  const permission = hosts[0].permission;
  if (permission !== ParticipantPermission.Confirmation && permission !== ParticipantPermission.Observation) {
    reject("invalid-mapping", `an external party is hosted with confirmation or observation permission, not ${permission}`);
  }
  if (p2p.mapping.threshold !== 1) reject("invalid-mapping", `the hosting threshold must be 1, not ${p2p.mapping.threshold}`);

  if (p2k.mapping.party !== party) reject("invalid-mapping", `the party-to-key mapping is for ${p2k.mapping.party}, not ${party}`);
  const signingKeys = p2k.mapping.keys.map((k, i) => keyOf(k, `signing key ${i}`));
  const fingerprints = signingKeys.map(fingerprintOf);
  if (signingKeys.length === 0 || new Set(fingerprints).size !== signingKeys.length) reject("invalid-mapping", "the party-to-key mapping needs distinct keys");
  const threshold = p2k.mapping.threshold;
  if (threshold < 1 || threshold > signingKeys.length) reject("invalid-mapping", `threshold ${threshold} is not within 1..${signingKeys.length}`);

  const keys = new Map<string, SigningKey>([[namespace, namespaceKey], ...signingKeys.map((k, i) => [fingerprints[i], k] as const)]);
  const hashes = req.transactions.map((t) => topologyTransactionHash(t.bytes));
  const multi = multiTransactionHash(hashes);
  /** The fingerprints whose signatures over `message` verify; a signature that does not is a rejection. */
  const signers = (signatures: readonly SignatureBy[], message: Uint8Array, where: string): Set<string> => {
    const ok = new Set<string>();
    for (const s of signatures) {
      const key = keys.get(s.signedBy) ?? reject("unauthorized", `${where}: signed by ${s.signedBy}, which is not a key of party ${party}`);
      try {
        if (!verifySignature(key, message, s)) reject("invalid-signature", `${where}: the signature by ${s.signedBy} does not verify`);
      } catch (e) {
        if (e instanceof InvalidSignatureInput) reject("invalid-signature", `${where}: ${e.message}`);
        throw e;
      }
      ok.add(s.signedBy);
    }
    return ok;
  };
  const overAll = signers(req.multiHashSignatures, multi, "multi_hash_signatures");
  const needs = (index: number) => (index === p2k.index ? [namespace, ...fingerprints] : [namespace]);
  req.transactions.forEach((t, i) => {
    const own = signers(t.signatures, hashes[i], `onboarding_transactions[${i}]`);
    const missing = needs(i).filter((fp) => !own.has(fp) && !overAll.has(fp));
    if (missing.length > 0) reject("unauthorized", `the ${read[i].mapping.kind} transaction lacks the signature of ${missing.join(", ")}`);
  });
  return { partyId: party, namespace, permission, threshold, signingKeys };
}
