/**
 * Weak Ed25519 keys at every onboarding entry point: the Ledger API's generate-topology and
 * allocate (JSON and gRPC) and Splice's `/v0/admin/external-party/topology/*`. Each key is refused
 * with the API's own error (INVALID_ARGUMENT in Canton's shape; 400 `{error}` on `/v0`), although
 * node:crypto verifies the forged signatures the requests carry, and no party is stored. A party
 * stored with such a key before the check gets no execution from a forged signature.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartyManagementService } from "../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import { CryptoKeyFormat, SignatureFormat, SigningAlgorithmSpec, SigningKeySpec } from "../../gen/com/daml/ledger/api/v2/crypto_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { participantUidOf } from "../../src/api/services/ledger/external-party-onboarding.js";
import { externalPartyTopology, type ExternalPartyTopology } from "../../src/external/external-party-topology.js";
import { fingerprintOf } from "../../src/external/fingerprint.js";
import { topologyTransactionHash } from "../../src/external/topology-transactions.js";
import { jsonSignature } from "../support/external-key-holder.js";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";
import { forgedSignature, SMALL_ORDER_POINTS, spkiOf, weakKeys } from "../support/weak-ed25519.js";

let s: TestServer;
let admin: string;
let operator: string;
let synchronizer: string;
let participantUid: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  operator = await s.token("administrator");
  synchronizer = s.server.api.identity.synchronizerId;
  participantUid = participantUidOf(s.server.api.identity.participantId);
});
afterAll(() => s?.stop());

const keys = weakKeys();
const partyList = async () => (await s.json("GET", "/v2/parties", undefined, admin)).text;
const exists = async (party: string) => (await s.json("GET", `/v2/parties/${encodeURIComponent(party)}`, undefined, admin)).body.partyDetails.length > 0;

/** The onboarding transactions of `raw` as generate would have built them before the check (node:crypto imports any 32 bytes). */
const topologyOf = (raw: Buffer, hint: string) =>
  externalPartyTopology(hint, { kind: "ed25519", spki: spkiOf(raw), fingerprintData: raw, key: createPublicKey({ key: spkiOf(raw), format: "der", type: "spki" }) }, participantUid);

/**
 * A topology of `raw` with a signature of each of its `messages`, forged where node:crypto verifies
 * one: hints are tried until all are. A small-order key gets a forged multi-hash signature within a
 * few hints; a namespace delegation's hash does not depend on the hint, so for some keys it has
 * none. Where nothing verifies, 64 bytes of 0xff.
 */
function forged(raw: Buffer, hint: string, messages: (t: ExternalPartyTopology) => Uint8Array[]): { topology: ExternalPartyTopology; signatures: Buffer[]; forged: boolean } {
  let topology = topologyOf(raw, hint);
  let signatures = messages(topology).map((m) => forgedSignature(raw, m));
  for (let i = 0; i < 50 && !signatures.every((x) => x !== undefined); i++) {
    topology = topologyOf(raw, `${hint}-${i}`);
    signatures = messages(topology).map((m) => forgedSignature(raw, m));
  }
  return { topology, signatures: signatures.map((x) => x ?? Buffer.alloc(64, 0xff)), forged: signatures.every((x) => x !== undefined) };
}

describe("weak Ed25519 keys at onboarding", () => {
  it("every small-order key gets a forged onboarding that node:crypto verifies (what the checks below refuse)", () => {
    for (const h of SMALL_ORDER_POINTS) {
      const raw = Buffer.from(h, "hex");
      expect(forged(raw, "probe", (t) => [t.multiHash]).forged, h).toBe(true);
    }
  });

  it("JSON Ledger API: generate-topology answers 400 INVALID_FIELD, allocate 400 TOPOLOGY_INVALID_MAPPING, and no party exists", async () => {
    const before = await partyList();
    for (const [i, [what, raw]] of keys.entries()) {
      for (const [format, keyData] of [["CRYPTO_KEY_FORMAT_RAW", raw], ["CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO", spkiOf(raw)]] as const) {
        const publicKey = { format, keyData: keyData.toString("base64"), keySpec: "SIGNING_KEY_SPEC_EC_CURVE25519" };
        const gen = await s.json("POST", "/v2/parties/external/generate-topology", { synchronizer, partyHint: `weak-json-${i}`, publicKey }, admin);
        expect(gen.status, `${what} ${format}: ${gen.text}`).toBe(400);
        expect(gen.body.code, what).toBe("INVALID_FIELD");
        expect(gen.body.cause, what).toContain("Invalid field public_key: Invalid Ed25519 public key: ");
      }

      const { topology, signatures } = forged(raw, `weak-json-${i}`, (t) => [t.multiHash]);
      const allocate = await s.json(
        "POST",
        "/v2/parties/external/allocate",
        {
          synchronizer,
          onboardingTransactions: topology.transactions.map((t) => ({ transaction: Buffer.from(t).toString("base64") })),
          multiHashSignatures: [jsonSignature(signatures[0], topology.fingerprint)],
        },
        admin,
      );
      expect(allocate.status, `${what}: ${allocate.text}`).toBe(400);
      expect(allocate.body.code, what).toBe("TOPOLOGY_INVALID_MAPPING");
      expect(allocate.body.cause, what).toContain("Invalid Ed25519 public key: ");
      expect(await exists(topology.partyId), what).toBe(false);
    }
    expect(await partyList()).toBe(before);
  });

  it("gRPC Ledger API: both methods answer INVALID_ARGUMENT (INVALID_FIELD, TOPOLOGY_INVALID_MAPPING), and no party exists", async () => {
    const client = createClient(PartyManagementService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${admin}` };
    const refusal = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ConnectError);
    const before = await partyList();
    for (const [i, [what, raw]] of keys.entries()) {
      const gen = await refusal(
        client.generateExternalPartyTopology({ synchronizer, partyHint: `weak-grpc-${i}`, publicKey: { format: CryptoKeyFormat.RAW, keyData: raw, keySpec: SigningKeySpec.EC_CURVE25519 } }, { headers }),
      );
      expect(gen, what).toBeInstanceOf(ConnectError);
      expect(gen!.code, what).toBe(Code.InvalidArgument);
      expect(gen!.findDetails(ErrorInfoSchema)[0].reason, what).toBe("INVALID_FIELD");

      // The multi-hash signature forged, and each transaction's own where a forgery verifies.
      const { topology, signatures } = forged(raw, `weak-grpc-${i}`, (t) => [t.multiHash]);
      const sig = (signature: Buffer) => ({ format: SignatureFormat.CONCAT, signature, signedBy: topology.fingerprint, signingAlgorithmSpec: SigningAlgorithmSpec.ED25519 });
      const onboardingTransactions = topology.transactions.map((transaction) => {
        const own = forgedSignature(raw, topologyTransactionHash(transaction));
        return { transaction, signatures: own ? [sig(own)] : [] };
      });
      const multiHashSignatures = [sig(signatures[0])];
      const allocate = await refusal(client.allocateExternalParty({ synchronizer, onboardingTransactions, multiHashSignatures }, { headers }));
      expect(allocate, what).toBeInstanceOf(ConnectError);
      expect(allocate!.code, what).toBe(Code.InvalidArgument);
      expect(allocate!.findDetails(ErrorInfoSchema)[0].reason, what).toBe("TOPOLOGY_INVALID_MAPPING");
      expect(await exists(topology.partyId), what).toBe(false);
    }
    expect(await partyList()).toBe(before);
  });

  it("Splice /v0/admin/external-party/topology: generate and submit answer 400 {error}, and no party exists", async () => {
    const before = await partyList();
    for (const [i, [what, raw]] of keys.entries()) {
      const gen = await s.json("POST", "/v0/admin/external-party/topology/generate", { party_hint: `weak-v0-${i}`, public_key: raw.toString("hex") }, operator);
      expect(gen.status, `${what}: ${gen.text}`).toBe(400);
      expect(gen.body, what).toEqual({ error: expect.stringContaining("Invalid Ed25519 public key: ") });

      const { topology, signatures } = forged(raw, `weak-v0-${i}`, (t) => t.transactions.map(topologyTransactionHash));
      const signed_topology_txs = topology.transactions.map((t, k) => ({ topology_tx: Buffer.from(t).toString("base64"), signed_hash: signatures[k].toString("hex") }));
      const submit = await s.json("POST", "/v0/admin/external-party/topology/submit", { public_key: raw.toString("hex"), signed_topology_txs }, operator);
      expect(submit.status, `${what}: ${submit.text}`).toBe(400);
      expect(submit.body, what).toEqual({ error: expect.stringContaining("public_key: Invalid Ed25519 public key: ") });
      expect(await exists(topology.partyId), what).toBe(false);
    }
    expect(await partyList()).toBe(before);
  });
});

describe("P-256 keys that are no point of the curve", () => {
  it("generate-topology answers 400 INVALID_FIELD for a point off the curve and for the point at infinity (which aborted the node)", async () => {
    const der = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "der", type: "spki" });
    const offCurve = Buffer.from(der);
    offCurve[offCurve.length - 1] ^= 1;
    const infinity = Buffer.concat([Buffer.from("3019301306072a8648ce3d020106082a8648ce3d030107030200", "hex"), Buffer.of(0)]);
    for (const [what, keyData] of [["off the curve", offCurve], ["the point at infinity", infinity]] as const) {
      const publicKey = { format: "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO", keyData: keyData.toString("base64"), keySpec: "SIGNING_KEY_SPEC_EC_P256" };
      const r = await s.json("POST", "/v2/parties/external/generate-topology", { synchronizer, partyHint: "p256", publicKey }, admin);
      expect(r.status, `${what}: ${r.text}`).toBe(400);
      expect(r.body.code, what).toBe("INVALID_FIELD");
      expect(r.body.cause, what).toContain("Invalid EC-P256 public key");
    }
    const ok = { format: "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO", keyData: der.toString("base64"), keySpec: "SIGNING_KEY_SPEC_EC_P256" };
    const r = await s.json("POST", "/v2/parties/external/generate-topology", { synchronizer, partyHint: "p256", publicKey: ok }, admin);
    expect(r.status, r.text).toBe(200);
  });
});

describe("a weak key stored before the check", () => {
  it("counts for nothing at execute: a forged signature is refused and nothing commits", async () => {
    // The identity point: (R = identity, s = 0) verifies under it for every message.
    const raw = Buffer.from(SMALL_ORDER_POINTS[0], "hex");
    const fingerprint = fingerprintOf({ fingerprintData: raw });
    const party = `weak-stored::${fingerprint}`;
    const stored = await s.server.api.store.addParty({
      party,
      isLocal: true,
      localMetadata: { resourceVersion: "0", annotations: {} },
      identityProviderId: "",
      external: { permission: "Confirmation", threshold: 1, signingKeys: [{ fingerprint, kind: "ed25519", spki: spkiOf(raw).toString("hex") }] },
    });
    expect(stored).toBe(true);
    const user = await s.json("POST", "/v2/users", { user: { id: "weak-stored", primaryParty: party }, rights: [{ kind: { CanActAs: { value: { party } } } }] }, admin);
    expect(user.status, user.text).toBe(200);
    const token = await s.token("weak-stored");

    const create = { CreateCommand: { templateId: IOU, createArguments: { issuer: party, owner: party, currency: "CC", amount: "1000000", observers: [] } } };
    const prepared = await s.json("POST", "/v2/interactive-submission/prepare", { commands: [create], commandId: "weak-stored-1", actAs: [party] }, token);
    expect(prepared.status, prepared.text).toBe(200);
    const hash = Buffer.from(prepared.body.preparedTransactionHash, "base64");
    const signature = forgedSignature(raw, hash)!;
    expect(signature).toBeInstanceOf(Buffer);
    const execute = await s.json(
      "POST",
      "/v2/interactive-submission/executeAndWait",
      {
        preparedTransaction: prepared.body.preparedTransaction,
        partySignatures: { signatures: [{ party, signatures: [jsonSignature(signature, fingerprint)] }] },
        submissionId: "weak-stored-sub-1",
        hashingSchemeVersion: "HASHING_SCHEME_VERSION_V2",
      },
      token,
    );
    expect(execute.status, execute.text).toBe(400);
    expect(execute.body.code).toBe("INVALID_ARGUMENT");
    // Its one key left out, the party has none to sign with.
    expect(execute.body.cause).toContain(`Party ${party} provided 1 signatures but has only 0 signing keys`);
    const end = (await s.json("GET", "/v2/state/ledger-end", undefined, token)).body.offset;
    const acs = await s.json("POST", "/v2/state/active-contracts", { activeAtOffset: end, eventFormat: { filtersByParty: { [party]: {} } } }, token);
    expect(acs.status, acs.text).toBe(200);
    expect(acs.body).toEqual([]);
  });
});
