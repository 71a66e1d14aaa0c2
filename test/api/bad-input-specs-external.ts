/**
 * The bad-input sweep's specs for the external-party routes of the Ledger API (issue #13):
 * GenerateExternalPartyTopology and AllocateExternalParty are served; interactive submission still
 * answers UNSUPPORTED_OPERATION (501), so its routes are marked `unsupported` with requests shaped
 * as Canton's.
 */
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

/** An execute request for a prepared transaction (base64 protobuf bytes, as Canton's JSON API takes it). */
const execute = (w: World) => ({
  preparedTransaction: "CgUKAzIuMQ==", // 0a 05 (0a 03 "2.1"): a PreparedTransaction whose DamlTransaction has version "2.1" only
  partySignatures: { signatures: [{ party: w.alice.party, signatures: [signature()] }] },
  submissionId: w.fresh("s"),
  hashingSchemeVersion: "HASHING_SCHEME_VERSION_V2",
});

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
    unsupported: true,
    valid: (w) => ({ commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: w.alice.party, owner: w.alice.party, currency: "CC", amount: "1", observers: [] } } }], commandId: w.fresh("c"), actAs: [w.alice.party], synchronizerId: w.synchronizerId }),
  },
  "POST /v2/interactive-submission/execute": { unsupported: true, valid: execute },
  "POST /v2/interactive-submission/executeAndWait": { unsupported: true, valid: execute },
  "POST /v2/interactive-submission/executeAndWaitForTransaction": { unsupported: true, valid: execute },
  "POST /v2/interactive-submission/preferred-packages": {
    unsupported: true,
    read: true,
    valid: (w) => ({ packageVettingRequirements: [{ parties: [w.alice.party], packageName: "splice-amulet" }], synchronizerId: w.synchronizerId }),
  },
  "GET /v2/interactive-submission/preferred-package-version": { unsupported: true },
};
