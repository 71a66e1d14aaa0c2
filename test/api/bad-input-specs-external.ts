/**
 * The bad-input sweep's specs for the external-party routes of the Ledger API (issue #13):
 * GenerateExternalPartyTopology, AllocateExternalParty and the interactive submission service. The
 * execute requests carry a well-formed prepared transaction for alice with a signature of no key
 * of hers, so every variant is refused.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { PreparedTransactionSchema } from "../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { Iou } from "../../src/templates/demo.js";
import type { Json } from "./bad-input-cases.js";
import { IOU } from "../support/test-server.js";
import type { RouteSpec, World } from "./bad-input-specs.js";

/** A fixed Ed25519 public key (the Canton docs' example) and its fingerprint. */
const KEY_B64 = "2RwUiIHVUVdulxzD8NKtPmIaaBqMer1A90rDjoklJPY=";
const FINGERPRINT = "1220205057e331cc8929dd217e2f8e63f503b7081773de60d01fb46839700bc5caaa";
const b64 = (bytes: number, fill = 7) => Buffer.alloc(bytes, fill).toString("base64");
const rawKey = (keyData = KEY_B64, keySpec = "SIGNING_KEY_SPEC_EC_CURVE25519", format = "CRYPTO_KEY_FORMAT_RAW") => ({ format, keyData, keySpec });
const signature = () => ({ format: "SIGNATURE_FORMAT_CONCAT", signature: b64(64), signedBy: FINGERPRINT, signingAlgorithmSpec: "SIGNING_ALGORITHM_SPEC_ED25519" });

const generate = (w: World, over: Record<string, Json> = {}) => ({ synchronizer: w.synchronizerId, partyHint: w.fresh("ext"), publicKey: rawKey(), ...over });

/** A prepared create of an Iou alice issues to herself, as base64 protobuf bytes (Canton's JSON form). */
function preparedFor(w: World): string {
  const party = (v: string) => ({ sum: { case: "party" as const, value: v } });
  const argument = { sum: { case: "record" as const, value: { fields: [
    { label: "issuer", value: party(w.alice.party) },
    { label: "owner", value: party(w.alice.party) },
    { label: "currency", value: { sum: { case: "text" as const, value: "CC" } } },
    { label: "amount", value: { sum: { case: "numeric" as const, value: "1.0000000000" } } },
    { label: "observers", value: { sum: { case: "list" as const, value: { elements: [] } } } },
  ] } } };
  const { packageId, moduleName, entityName } = Iou.id;
  const prepared = create(PreparedTransactionSchema, {
    transaction: {
      version: "2.1",
      roots: ["0"],
      nodes: [{ nodeId: "0", versionedNode: { case: "v1", value: { nodeType: { case: "create", value: {
        lfVersion: "2.1", contractId: "00" + "ab".repeat(32), packageName: "ccwallet-demo", templateId: { packageId, moduleName, entityName }, argument,
        signatories: [w.alice.party], stakeholders: [w.alice.party],
      } } } } }],
      nodeSeeds: [{ nodeId: 0, seed: new Uint8Array(32) }],
    },
    metadata: { submitterInfo: { actAs: [w.alice.party], commandId: w.fresh("c") }, synchronizerId: w.synchronizerId, transactionUuid: "8a7f3c39-5d0e-4d4c-9b0a-1f3e2d4c5b6a", preparationTime: BigInt(Date.now()) * 1000n },
  });
  return Buffer.from(toBinary(PreparedTransactionSchema, prepared)).toString("base64");
}

/** An execute request for alice's prepared transaction, signed by a key that is not hers. */
const execute = (w: World) => ({
  preparedTransaction: preparedFor(w),
  partySignatures: { signatures: [{ party: w.alice.party, signatures: [signature()] }] },
  submissionId: w.fresh("s"),
  hashingSchemeVersion: "HASHING_SCHEME_VERSION_V2",
});

const executeSpec: RouteSpec = {
  // Executing needs actAs (or executeAs) rights for the signed act_as parties: alice's own token.
  as: (w) => w.alice.token,
  valid: execute,
  bad: (w) => [
    { name: "bytes that are not a prepared transaction", merge: { preparedTransaction: "AAAA" }, allowed: [400] },
    { name: "no prepared transaction", merge: { preparedTransaction: "" }, allowed: [400] },
    { name: "no signatures", merge: { partySignatures: { signatures: [] } }, allowed: [400] },
    { name: "an unspecified hashing scheme", merge: { hashingSchemeVersion: "HASHING_SCHEME_VERSION_UNSPECIFIED" }, allowed: [400] },
    { name: "no submission id", merge: { submissionId: "" }, allowed: [400] },
    { name: "as another party's user", token: w.bob.token, allowed: [403] },
  ],
};

export const EXTERNAL_SPECS: Record<string, RouteSpec> = {
  "POST /v2/parties/external/generate-topology": {
    // Generating transactions allocates nothing: the party exists only once they come back signed.
    read: true,
    valid: (w) => generate(w),
    bad: (w) => [
      { name: "a key of 31 bytes", body: generate(w, { publicKey: rawKey(b64(31)) }), allowed: [400] },
      { name: "a key of 33 bytes", body: generate(w, { publicKey: rawKey(b64(33)) }), allowed: [400] },
      { name: "key data that is not base64", body: generate(w, { publicKey: rawKey("not base64!") }), allowed: [400] },
      { name: "a raw key declared P-256", body: generate(w, { publicKey: rawKey(KEY_B64, "SIGNING_KEY_SPEC_EC_P256") }), allowed: [400] },
      { name: "a 32-byte key declared DER SPKI", body: generate(w, { publicKey: rawKey(KEY_B64, undefined, "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO") }), allowed: [400] },
      { name: "an unspecified key spec", body: generate(w, { publicKey: rawKey(KEY_B64, "SIGNING_KEY_SPEC_UNSPECIFIED") }), allowed: [400] },
      { name: "no public key", body: { synchronizer: w.synchronizerId, partyHint: w.fresh("ext") }, allowed: [400] },
      { name: "a hint with '::'", body: generate(w, { partyHint: "a::b" }), allowed: [400] },
      { name: "a hint of 186 characters", body: generate(w, { partyHint: "h".repeat(186) }), allowed: [400] },
      { name: "an unknown synchronizer", body: generate(w, { synchronizer: "nowhere::1220" + "ab".repeat(32) }), allowed: [400] },
      { name: "another confirming participant", body: generate(w, { otherConfirmingParticipantUids: ["other::1220" + "cd".repeat(32)] }), allowed: [400] },
      { name: "a threshold above the confirmers", body: generate(w, { confirmationThreshold: 2 }), allowed: [400] },
      { name: "as a non-admin", body: generate(w), token: w.alice.token, allowed: [403] },
    ],
  },
  // The valid body is well formed but not a signed onboarding (no private key here): every variant is refused.
  "POST /v2/parties/external/allocate": {
    valid: (w) => ({ synchronizer: w.synchronizerId, onboardingTransactions: [{ transaction: b64(40) }], multiHashSignatures: [signature()] }),
    bad: (w) => [
      { name: "no onboarding transactions", body: { synchronizer: w.synchronizerId, onboardingTransactions: [], multiHashSignatures: [signature()] }, allowed: [400] },
      { name: "an unknown synchronizer", merge: { synchronizer: "nowhere::1220" + "ab".repeat(32) }, allowed: [400] },
      { name: "a transaction that is not base64", merge: { onboardingTransactions: [{ transaction: "not base64!" }] }, allowed: [400] },
      { name: "a signature of 63 bytes", merge: { multiHashSignatures: [{ ...signature(), signature: b64(63) }] }, allowed: [400] },
      { name: "as a non-admin", token: w.alice.token, allowed: [403] },
    ],
  },
  "POST /v2/interactive-submission/prepare": {
    as: (w) => w.alice.token,
    // Preparing commits nothing: reading as the parties is enough.
    read: true,
    valid: (w) => ({ commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: w.alice.party, owner: w.alice.party, currency: "CC", amount: "1", observers: [] } } }], commandId: w.fresh("c"), actAs: [w.alice.party], synchronizerId: w.synchronizerId }),
    bad: (w) => [
      { name: "two commands", merge: { commands: [iouOf(w), iouOf(w)] }, allowed: [400] },
      { name: "no commands", merge: { commands: [] }, allowed: [400] },
      { name: "another party", merge: { actAs: [w.bob.party] }, allowed: [403] },
      { name: "an unknown synchronizer", merge: { synchronizerId: "nowhere::1220" + "ab".repeat(32) }, allowed: [400] },
      { name: "an unknown contract", merge: { commands: [{ ExerciseCommand: { templateId: IOU, contractId: w.unknownCid, choice: "Iou_Split", choiceArgument: { splitAmount: "1" } } }] }, allowed: [404] },
    ],
  },
  "POST /v2/interactive-submission/execute": executeSpec,
  "POST /v2/interactive-submission/executeAndWait": executeSpec,
  "POST /v2/interactive-submission/executeAndWaitForTransaction": executeSpec,
  "POST /v2/interactive-submission/preferred-packages": {
    read: true,
    anyUser: true,
    valid: (w) => ({ packageVettingRequirements: [{ parties: [w.alice.party], packageName: "splice-amulet" }], synchronizerId: w.synchronizerId }),
    bad: (w) => [
      { name: "an unknown package name", body: { packageVettingRequirements: [{ parties: [w.alice.party], packageName: "no-such-package" }] }, allowed: [400] },
      { name: "no requirements", body: { packageVettingRequirements: [] }, allowed: [400] },
      { name: "an unknown synchronizer", merge: { synchronizerId: "nowhere::1220" + "ab".repeat(32) }, allowed: [400] },
    ],
  },
  "GET /v2/interactive-submission/preferred-package-version": { anyUser: true, read: true, query: () => "packageName=splice-amulet" },
};

// ---- Splice /v0/admin/external-party (operator) and the transfer-command status (any user) ----
const HEX_KEY = Buffer.from(KEY_B64, "base64").toString("hex");
const prepared = (w: World) => ({ transaction: preparedFor(w), signed_tx_hash: "ab".repeat(64), public_key: HEX_KEY, party_id: w.alice.party });
const submissionBad = (w: World) => [
  { name: "a signature by no key of the party", allowed: [400] },
  { name: "a signature that is not hex", merge: { submission: { ...prepared(w), signed_tx_hash: "zz" } }, allowed: [400] },
  { name: "a signature of 63 bytes", merge: { submission: { ...prepared(w), signed_tx_hash: "ab".repeat(63) } }, allowed: [400] },
  { name: "a public key of 31 bytes", merge: { submission: { ...prepared(w), public_key: "ab".repeat(31) } }, allowed: [400] },
  { name: "a transaction that is not base64", merge: { submission: { ...prepared(w), transaction: "not base64!" } }, allowed: [400] },
  { name: "a transaction that is not a prepared transaction", merge: { submission: { ...prepared(w), transaction: "AAAA" } }, allowed: [400] },
  { name: "as a wallet user", token: w.alice.token, allowed: [403] },
];

export const SPLICE_EXTERNAL_SPECS: Record<string, RouteSpec> = {
  "POST /v0/admin/external-party/topology/generate": {
    read: true,
    valid: (w) => ({ party_hint: w.fresh("ext"), public_key: HEX_KEY }),
    bad: (w) => [
      { name: "a key of 31 bytes", merge: { public_key: "ab".repeat(31) }, allowed: [400] },
      { name: "a key that is not hex", merge: { public_key: "xyz" }, allowed: [400] },
      { name: "a hint with '::'", merge: { party_hint: "a::b" }, allowed: [400] },
      { name: "as a wallet user", token: w.alice.token, allowed: [403] },
    ],
  },
  "POST /v0/admin/external-party/topology/submit": {
    valid: () => ({ public_key: HEX_KEY, signed_topology_txs: [{ topology_tx: b64(40), signed_hash: "ab".repeat(64) }] }),
    bad: (w) => [
      { name: "no transactions", merge: { signed_topology_txs: [] }, allowed: [400] },
      { name: "a transaction that is not base64", merge: { signed_topology_txs: [{ topology_tx: "not base64!", signed_hash: "ab".repeat(64) }] }, allowed: [400] },
      { name: "a signature that is not hex", merge: { signed_topology_txs: [{ topology_tx: b64(40), signed_hash: "zz" }] }, allowed: [400] },
      { name: "as a wallet user", token: w.alice.token, allowed: [403] },
    ],
  },
  "POST /v0/admin/external-party/setup-proposal": {
    valid: (w) => ({ user_party_id: w.ghost }),
    bad: (w) => [
      { name: "not a party", merge: { user_party_id: "nope" }, allowed: [400] },
      { name: "an unknown party", merge: { user_party_id: w.ghost }, allowed: [404] },
      { name: "as a wallet user", token: w.alice.token, allowed: [403] },
    ],
  },
  "POST /v0/admin/external-party/setup-proposal/prepare-accept": {
    read: true,
    valid: (w) => ({ contract_id: w.unknownCid, user_party_id: w.alice.party }),
    bad: (w) => [
      { name: "a party without a proposal", allowed: [404] },
      { name: "an unknown party", merge: { user_party_id: w.ghost }, allowed: [404] },
      { name: "as a wallet user", token: w.alice.token, allowed: [403] },
    ],
  },
  "POST /v0/admin/external-party/setup-proposal/submit-accept": { valid: (w) => ({ submission: prepared(w) }), bad: submissionBad },
  "POST /v0/admin/external-party/transfer-preapproval/prepare-send": {
    read: true,
    valid: (w) => ({ sender_party_id: w.alice.party, receiver_party_id: w.bob.party, amount: 1, expires_at: new Date(Date.now() + 3_600_000).toISOString(), nonce: 0 }),
    bad: (w) => [
      { name: "an amount of 0", merge: { amount: 0 }, allowed: [400] },
      { name: "an amount as a bad string", merge: { amount: "1e3" }, allowed: [400] },
      { name: "an amount of too many digits", merge: { amount: 0.1234567890123456 }, allowed: [400] },
      { name: "an expiry in the past", merge: { expires_at: "2020-01-01T00:00:00Z" }, allowed: [400] },
      { name: "a negative nonce", merge: { nonce: -1 }, allowed: [400] },
      { name: "an unknown receiver", merge: { receiver_party_id: w.ghost }, allowed: [404] },
      { name: "as a wallet user", token: w.alice.token, allowed: [403] },
    ],
  },
  "POST /v0/admin/external-party/transfer-preapproval/submit-send": { valid: (w) => ({ submission: prepared(w) }), bad: submissionBad },
  "GET /v0/scan-proxy/transfer-command/status": {
    anyUser: true,
    query: (w) => `sender=${encodeURIComponent(w.alice.party)}&nonce=0`,
    bad: () => [
      { name: "no sender", query: "nonce=0" },
      { name: "no nonce", query: "sender=nope" },
      { name: "sender not a party", query: "sender=nope&nonce=0" },
    ],
  },
};

const iouOf = (w: World) => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: w.alice.party, owner: w.alice.party, currency: "CC", amount: "1", observers: [] } } });
