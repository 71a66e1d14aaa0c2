/**
 * External-party onboarding over real sockets, by a client that holds only an Ed25519 key from
 * node:crypto and recomputes every hash it signs itself (SHA-256 with Canton's purposes, no code of
 * ours): generate-topology, then allocate, on the JSON API and on gRPC. Bad input (a wrong
 * signature, another key's, a key of the wrong length, malformed base64) gets Canton's error and
 * allocates nothing; the allocated party is hosted here but cannot act through plain submit.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartyManagementService } from "../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import { CryptoKeyFormat, SignatureFormat, SigningAlgorithmSpec, SigningKeySpec } from "../../gen/com/daml/ledger/api/v2/crypto_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { keyHolder } from "../support/external-key-holder.js";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let admin: string;
let synchronizer: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  synchronizer = s.server.api.identity.synchronizerId;
});
afterAll(() => s?.stop());

const jsonSig = (signature: Buffer, signedBy: string) => ({ format: "SIGNATURE_FORMAT_CONCAT", signature: signature.toString("base64"), signedBy, signingAlgorithmSpec: "SIGNING_ALGORITHM_SPEC_ED25519" });
const parties = async () => (await s.json("GET", "/v2/parties", undefined, admin)).text;

describe("external party onboarding, JSON Ledger API", () => {
  const alice = keyHolder();
  const generateBody = (over: Record<string, unknown> = {}) => ({
    synchronizer,
    partyHint: "alice-ext",
    publicKey: { format: "CRYPTO_KEY_FORMAT_RAW", keyData: alice.raw.toString("base64"), keySpec: "SIGNING_KEY_SPEC_EC_CURVE25519" },
    ...over,
  });

  it("generates the party id, three transactions and their multi-hash as the client recomputes them, then allocates on a valid signature only", async () => {
    const gen = await s.json("POST", "/v2/parties/external/generate-topology", generateBody(), admin);
    expect(gen.status, gen.text).toBe(200);
    expect(gen.body.publicKeyFingerprint).toBe(alice.fingerprint);
    expect(gen.body.partyId).toBe(`alice-ext::${alice.fingerprint}`);
    const txs = (gen.body.topologyTransactions as string[]).map((t) => Buffer.from(t, "base64"));
    expect(txs).toHaveLength(3);
    const multiHash = alice.multiHash(txs);
    expect(gen.body.multiHash).toBe(multiHash.toString("base64"));

    const before = await parties();
    const allocate = (signatures: unknown[], onboarding = gen.body.topologyTransactions.map((transaction: string) => ({ transaction }))) =>
      s.json("POST", "/v2/parties/external/allocate", { synchronizer, onboardingTransactions: onboarding, multiHashSignatures: signatures }, admin);
    const wrong = alice.sign(multiHash);
    wrong[5] ^= 0x40;
    const other = keyHolder();
    const bad: [string, unknown[], number, string][] = [
      ["a wrong signature", [jsonSig(wrong, alice.fingerprint)], 400, "TOPOLOGY_INVALID_TOPOLOGY_TX_SIGNATURE"],
      ["another key's signature", [jsonSig(other.sign(multiHash), alice.fingerprint)], 400, "TOPOLOGY_INVALID_TOPOLOGY_TX_SIGNATURE"],
      ["another key's signature by its own id", [jsonSig(other.sign(multiHash), other.fingerprint)], 400, "TOPOLOGY_UNAUTHORIZED_TRANSACTION"],
      ["no signature", [], 400, "TOPOLOGY_UNAUTHORIZED_TRANSACTION"],
      ["a signature of 63 bytes", [jsonSig(alice.sign(multiHash).subarray(0, 63), alice.fingerprint)], 400, "TOPOLOGY_INVALID_TOPOLOGY_TX_SIGNATURE"],
      ["a signature that is not base64", [{ ...jsonSig(alice.sign(multiHash), alice.fingerprint), signature: "%%%" }], 400, "INVALID_ARGUMENT"],
    ];
    for (const [what, signatures, status, code] of bad) {
      const r = await allocate(signatures);
      expect(r.status, `${what}: ${r.text}`).toBe(status);
      expect(r.body.code, what).toBe(code);
      // A body that does not decode: Canton's cause, in a JsCantonError like every /v2 error.
      if (code === "INVALID_ARGUMENT") expect(r.body.cause, what).toMatch(/^Invalid value for: body/);
    }
    const tampered = await allocate([jsonSig(alice.sign(multiHash), alice.fingerprint)], [{ transaction: "AAAA" }, ...gen.body.topologyTransactions.slice(1).map((transaction: string) => ({ transaction }))]);
    expect(tampered.status, tampered.text).toBe(400);
    expect(await parties()).toBe(before);

    const ok = await allocate([jsonSig(alice.sign(multiHash), alice.fingerprint)]);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ partyId: gen.body.partyId });
    const details = await s.json("GET", `/v2/parties/${encodeURIComponent(gen.body.partyId)}`, undefined, admin);
    expect(details.body.partyDetails).toEqual([expect.objectContaining({ party: gen.body.partyId, isLocal: true })]);
    const again = await allocate([jsonSig(alice.sign(multiHash), alice.fingerprint)]);
    expect(again.status).toBe(400);
    expect(again.text).toContain("already allocated");

    // Hosted with confirmation permission only: plain submission cannot act for it, even for a user with actAs rights.
    const user = await s.json("POST", "/v2/users", { user: { id: "alice-ext-user", primaryParty: gen.body.partyId }, rights: [{ kind: { CanActAs: { value: { party: gen.body.partyId } } } }] }, admin);
    expect(user.status, user.text).toBe(200);
    const submit = await s.json(
      "POST",
      "/v2/commands/submit-and-wait",
      { commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: gen.body.partyId, owner: gen.body.partyId, currency: "CC", amount: "1", observers: [] } } }], commandId: "ext-plain-1", actAs: [gen.body.partyId] },
      await s.token("alice-ext-user"),
    );
    expect(submit.status, submit.text).toBe(400);
    expect(submit.body.code).toBe("DAML_AUTHORIZATION_ERROR");
  });

  it("refuses keys of the wrong length and malformed key data, changing nothing", async () => {
    const before = await parties();
    const cases: [string, Record<string, unknown>, string | undefined][] = [
      ["31 bytes", { publicKey: { ...generateBody().publicKey, keyData: alice.raw.subarray(1).toString("base64") } }, "INVALID_FIELD"],
      ["33 bytes", { publicKey: { ...generateBody().publicKey, keyData: Buffer.concat([alice.raw, Buffer.from([0])]).toString("base64") } }, "INVALID_FIELD"],
      ["a raw key declared SPKI", { publicKey: { ...generateBody().publicKey, format: "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO" } }, "INVALID_FIELD"],
      ["key data that is not base64", { publicKey: { ...generateBody().publicKey, keyData: "zz!" } }, undefined],
      ["a hint with '::'", { partyHint: "a::b" }, "INVALID_FIELD"],
      ["another synchronizer", { synchronizer: "other::1220" + "00".repeat(32) }, "INVALID_FIELD"],
    ];
    for (const [what, over, code] of cases) {
      const r = await s.json("POST", "/v2/parties/external/generate-topology", generateBody(over), admin);
      expect(r.status, `${what}: ${r.text}`).toBe(400);
      if (code) expect(r.body.code, what).toBe(code);
    }
    expect(await parties()).toBe(before);
  });
});

describe("external party onboarding, gRPC", () => {
  it("allocates with one signature per transaction from a DER SPKI key; refuses a transaction signed by another key", async () => {
    const bob = keyHolder();
    const client = createClient(PartyManagementService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${admin}` };
    const gen = await client.generateExternalPartyTopology(
      { synchronizer, partyHint: "bob-ext", publicKey: { format: CryptoKeyFormat.DER_X509_SUBJECT_PUBLIC_KEY_INFO, keyData: bob.spki, keySpec: SigningKeySpec.EC_CURVE25519 } },
      { headers },
    );
    expect(gen.partyId).toBe(`bob-ext::${bob.fingerprint}`);
    expect(Buffer.from(gen.multiHash)).toEqual(bob.multiHash(gen.topologyTransactions));
    const signed = (signer: ReturnType<typeof keyHolder>) =>
      gen.topologyTransactions.map((transaction) => ({
        transaction,
        signatures: [{ format: SignatureFormat.CONCAT, signature: signer.sign(signer.txHash(transaction)), signedBy: bob.fingerprint, signingAlgorithmSpec: SigningAlgorithmSpec.ED25519 }],
      }));
    const err = await client.allocateExternalParty({ synchronizer, onboardingTransactions: signed(keyHolder()) }, { headers }).catch((e: unknown) => e as ConnectError);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    expect((err as ConnectError).findDetails(ErrorInfoSchema)[0].reason).toBe("TOPOLOGY_INVALID_TOPOLOGY_TX_SIGNATURE");
    expect((await s.json("GET", `/v2/parties/${encodeURIComponent(gen.partyId)}`, undefined, admin)).body.partyDetails).toEqual([]);

    const ok = await client.allocateExternalParty({ synchronizer, onboardingTransactions: signed(bob) }, { headers });
    expect(ok.partyId).toBe(gen.partyId);
  });
});
