/** AllocateExternalParty's checks: a client holding only an Ed25519 key (node:crypto) onboards; every way of getting it wrong is refused with its kind. */
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SignatureFormat, SigningAlgorithmSpec } from "../../src/external/crypto-enums.js";
import { externalPartyTopology } from "../../src/external/external-party-topology.js";
import { fingerprintOf } from "../../src/external/fingerprint.js";
import { checkOnboarding, OnboardingRejected, type OnboardingRejection, type OnboardingRequest, type SignatureBy } from "../../src/external/onboarding-check.js";
import { ED25519_SPKI_PREFIX, ed25519Key } from "../../src/external/signing-key.js";
import { ParticipantPermission, topologyTransactionHash, topologyTransactionOf } from "../../src/external/topology-transactions.js";

const PARTICIPANT = "ccwallet::1220" + "ab".repeat(32);

function client() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" })).subarray(ED25519_SPKI_PREFIX.length);
  const key = ed25519Key(raw);
  const signBy = (message: Uint8Array, by = fingerprintOf(key) as string): SignatureBy => ({
    format: SignatureFormat.Concat,
    algorithm: SigningAlgorithmSpec.Ed25519,
    signature: new Uint8Array(sign(null, message, privateKey as KeyObject)),
    signedBy: by,
  });
  return { key, signBy };
}

const rejection = (req: OnboardingRequest): OnboardingRejection | "accepted" => {
  try {
    checkOnboarding(req);
    return "accepted";
  } catch (e) {
    if (e instanceof OnboardingRejected) return e.kind;
    throw e;
  }
};

describe("external party onboarding checks", () => {
  const alice = client();
  const t = externalPartyTopology("alice", alice.key, PARTICIPANT);
  const unsigned = t.transactions.map((bytes) => ({ bytes, signatures: [] }));
  const byMultiHash: OnboardingRequest = { transactions: unsigned, multiHashSignatures: [alice.signBy(t.multiHash)], participantUid: PARTICIPANT };

  it("accepts the generated transactions signed once over the multi-hash, or each over its own hash", () => {
    const party = checkOnboarding(byMultiHash);
    expect(party).toMatchObject({ partyId: t.partyId, namespace: t.fingerprint, permission: ParticipantPermission.Confirmation, threshold: 1 });
    expect(party.signingKeys.map(fingerprintOf)).toEqual([t.fingerprint]);
    const each = t.transactions.map((bytes) => ({ bytes, signatures: [alice.signBy(topologyTransactionHash(bytes))] }));
    expect(checkOnboarding({ transactions: each, multiHashSignatures: [], participantUid: PARTICIPANT }).partyId).toBe(t.partyId);
  });

  it("refuses wrong, foreign, missing and misplaced signatures", () => {
    const mallory = client();
    const bad = Uint8Array.from(byMultiHash.multiHashSignatures[0].signature);
    bad[0] ^= 1;
    const cases: [string, OnboardingRequest, OnboardingRejection][] = [
      ["a flipped bit", { ...byMultiHash, multiHashSignatures: [{ ...byMultiHash.multiHashSignatures[0], signature: bad }] }, "invalid-signature"],
      ["another key's signature under alice's fingerprint", { ...byMultiHash, multiHashSignatures: [mallory.signBy(t.multiHash, t.fingerprint)] }, "invalid-signature"],
      ["another key's signature under its own fingerprint", { ...byMultiHash, multiHashSignatures: [mallory.signBy(t.multiHash)] }, "unauthorized"],
      ["no signature", { ...byMultiHash, multiHashSignatures: [] }, "unauthorized"],
      ["the multi-hash signed as one transaction's", { ...byMultiHash, multiHashSignatures: [], transactions: [{ bytes: t.transactions[0], signatures: [alice.signBy(t.multiHash)] }, ...unsigned.slice(1)] }, "invalid-signature"],
      ["a 63-byte signature", { ...byMultiHash, multiHashSignatures: [{ ...byMultiHash.multiHashSignatures[0], signature: bad.subarray(0, 63) }] }, "invalid-signature"],
    ];
    for (const [what, req, kind] of cases) expect(rejection(req), what).toBe(kind);
  });

  it("refuses transactions that are not one party's onboarding hosted here", () => {
    const mallory = client();
    const other = externalPartyTopology("alice", alice.key, "elsewhere::1220" + "cd".repeat(32));
    const signed = (transactions: Uint8Array[], by = alice): OnboardingRequest => ({
      transactions: transactions.map((bytes) => ({ bytes, signatures: [by.signBy(topologyTransactionHash(bytes))] })),
      multiHashSignatures: [],
      participantUid: PARTICIPANT,
    });
    const [ns, p2p, p2k] = t.transactions;
    const cases: [string, OnboardingRequest, OnboardingRejection][] = [
      ["hosted by another participant", signed(other.transactions as Uint8Array[]), "invalid-mapping"],
      ["without its party-to-key mapping", signed([ns, p2p]), "invalid-mapping"],
      ["a transaction twice", signed([ns, p2p, p2k, p2k]), "invalid-mapping"],
      ["a submission permission", signed([ns, topologyTransactionOf.partyToParticipant(t.partyId, 1, [{ uid: PARTICIPANT, permission: ParticipantPermission.Submission }]), p2k]), "invalid-mapping"],
      ["the keys of another party", signed([ns, p2p, topologyTransactionOf.partyToKeyMapping("bob::" + t.fingerprint, 1, [alice.key])]), "invalid-mapping"],
      ["a namespace that is not the key's", signed([topologyTransactionOf.namespaceDelegation(fingerprintOf(mallory.key), alice.key), p2p, p2k]), "invalid-mapping"],
      ["mallory's key for alice's party, signed by mallory", signed([ns, p2p, topologyTransactionOf.partyToKeyMapping(t.partyId, 1, [mallory.key])], mallory), "unauthorized"],
      ["bytes that are no topology transaction", signed([Uint8Array.of(0x0a, 0x09, 1), p2p, p2k]), "malformed"],
    ];
    for (const [what, req, kind] of cases) expect(rejection(req), what).toBe(kind);
  });

  it("needs proof of ownership of every key of the party-to-key mapping", () => {
    const second = client();
    const p2k = topologyTransactionOf.partyToKeyMapping(t.partyId, 1, [alice.key, second.key]);
    const txs = [t.transactions[0], t.transactions[1], p2k];
    const withSigners = (signers: ReturnType<typeof client>[]): OnboardingRequest => ({
      transactions: txs.map((bytes, i) => ({ bytes, signatures: (i === 2 ? signers : [alice]).map((c) => c.signBy(topologyTransactionHash(bytes))) })),
      multiHashSignatures: [],
      participantUid: PARTICIPANT,
    });
    expect(rejection(withSigners([alice]))).toBe("unauthorized");
    expect(rejection(withSigners([alice, second]))).toBe("accepted");
  });
});
