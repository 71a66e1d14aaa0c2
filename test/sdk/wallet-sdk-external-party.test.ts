/**
 * The Canton wallet SDK's own external-party onboarding against the node, unchanged:
 * `sdk.keys.generate()`, then `party.external.create(publicKey).sign(privateKey).execute()` —
 * generate-topology, the SDK signs the multi-hash with tweetnacl, allocate, then it waits for the
 * party and grants its user actAs rights. The SDK's independent hashing (core-tx-visualizer, a
 * dependency of the SDK) agrees with ours on the topology multi-hash and the public V2 vector.
 */
import "./node20-shims.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedTransactionHash } from "../../src/external/prepared-transaction-hash.js";
import { PreparedTransactionSchema } from "../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { fromBinary } from "@bufbuild/protobuf";
import { VECTORS } from "../external/vectors.js";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";

const { SDK } = await import("@canton-network/wallet-sdk");
type Sdk = Awaited<ReturnType<typeof SDK.create>>;

let s: TestServer;
let sdk: Sdk;

beforeAll(async () => {
  s = await startTestServer();
  sdk = await SDK.create({ auth: { method: "static", token: await s.adminToken() }, ledgerClientUrl: s.http });
}, 60_000);
afterAll(() => s?.stop());

describe("the Canton wallet SDK's external party onboarding", () => {
  it("creates, signs and allocates an external party; the party is hosted here under the key's namespace", async () => {
    const keys = sdk.keys.generate();
    const party = await sdk.party.external.create(keys.publicKey, { partyHint: "sdk-ext" }).sign(keys.privateKey).execute();
    expect(party.partyId).toBe(`sdk-ext::${party.publicKeyFingerprint}`);
    expect(party.topologyTransactions).toHaveLength(3);
    expect(await sdk.party.list()).toContain(party.partyId);
    const details = await s.json("GET", `/v2/parties/${encodeURIComponent(party.partyId)}`);
    expect(details.body.partyDetails).toEqual([expect.objectContaining({ party: party.partyId, isLocal: true })]);

    const viz = await import("@canton-network/core-tx-visualizer");
    const txs = party.topologyTransactions!.map((t: string) => new Uint8Array(Buffer.from(t, "base64")));
    const hashes = await Promise.all(txs.map((t: Uint8Array) => viz.computeSha256CantonHash(11, t)));
    const multi = await viz.computeSha256CantonHash(55, await viz.computeMultiHashForTopology(hashes));
    expect(Buffer.from(multi).toString("base64")).toBe(party.multiHash);
  }, 30_000);

  it("prepares, signs and executes through ledger.prepare().sign().execute(); the SDK's own hashing reproduces our hashes", async () => {
    const keys = sdk.keys.generate();
    const party = await sdk.party.external.create(keys.publicKey, { partyHint: "sdk-signer" }).sign(keys.privateKey).execute();
    const viz = await import("@canton-network/core-tx-visualizer");
    const iou = (amount: string) => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: party.partyId, owner: party.partyId, currency: "CC", amount, observers: [] } } });

    const prepared = sdk.ledger.prepare({ partyId: party.partyId, commands: [iou("8")] });
    const response = (await prepared.toJSON()).response;
    expect(await viz.hashPreparedTransaction(response.preparedTransaction, "base64")).toBe(response.preparedTransactionHash);
    const done = await prepared.sign(keys.privateKey).execute({ partyId: party.partyId });
    expect(done.updateId).toMatch(/^1220[0-9a-f]{64}$/);

    const held = async () => (await sdk.ledger.acs.read({ parties: [party.partyId], templateIds: [IOU], filterByParty: true })).map((c: any) => c.createdEvent?.createArgument?.amount ?? c.createArgument?.amount);
    expect(await held()).toEqual(["8.0000000000"]);
    const [contract] = await sdk.ledger.acs.read({ parties: [party.partyId], templateIds: [IOU], filterByParty: true });
    const cid = (contract as any).createdEvent?.contractId ?? (contract as any).contractId;

    // An exercise with an input contract and local contract ids in its result: the SDK's hash agrees too.
    const split = sdk.ledger.prepare({ partyId: party.partyId, commands: [{ ExerciseCommand: { templateId: IOU, contractId: cid, choice: "Iou_Split", choiceArgument: { splitAmount: "3" } } }] });
    const splitResponse = (await split.toJSON()).response;
    expect(await viz.hashPreparedTransaction(splitResponse.preparedTransaction, "base64")).toBe(splitResponse.preparedTransactionHash);
    await split.sign(keys.privateKey).execute({ partyId: party.partyId });
    expect((await held()).sort()).toEqual(["3.0000000000", "5.0000000000"]);
  }, 30_000);

  it("an external party taps CC and sends it with a token-standard transfer, each prepared by the SDK and signed with its key", async () => {
    const keys = sdk.keys.generate();
    const sender = await sdk.party.external.create(keys.publicKey, { partyHint: "sdk-ext-sender" }).sign(keys.privateKey).execute();
    const receiver = (await s.json("POST", "/v0/admin/users", { name: "sdk-ext-receiver" }, await s.token("administrator"))).body.party_id as string;
    const auth = { method: "static" as const, token: await s.adminToken() };
    const full = await sdk.extend({
      amulet: { auth, validatorUrl: `${s.http}/api/validator`, scanApiUrl: `${s.http}/api/scan`, registryUrl: s.http },
      token: { auth, registries: [s.http] },
    });
    const viz = await import("@canton-network/core-tx-visualizer");
    const signedRun = async (commands: unknown, disclosedContracts: any[]) => {
      const prepared = full.ledger.prepare({ partyId: sender.partyId, commands, disclosedContracts });
      const response = (await prepared.toJSON()).response;
      expect(await viz.hashPreparedTransaction(response.preparedTransaction, "base64")).toBe(response.preparedTransactionHash);
      return prepared.sign(keys.privateKey).execute({ partyId: sender.partyId });
    };

    const [tap, tapDisclosed] = await full.amulet.tap(sender.partyId, "50");
    await signedRun(tap, tapDisclosed);
    expect((await full.token.utxos.list({ partyId: sender.partyId })).map((u) => u.interfaceViewValue.amount)).toEqual(["50.0000000000"]);

    const [transfer, disclosed] = await full.token.transfer.create({ sender: sender.partyId, recipient: receiver, amount: "20", instrumentId: "Amulet", registryUrl: new URL(s.http) });
    await signedRun(transfer, disclosed);
    const pending = await full.token.transfer.pending(receiver);
    expect(pending.map((p) => p.interfaceViewValue.transfer)).toMatchObject([{ sender: sender.partyId, receiver, amount: "20.0000000000" }]);
    const left = (await full.token.utxos.list({ partyId: sender.partyId })).map((u) => Number(u.interfaceViewValue.amount));
    // 20 CC are locked in the instruction; the unlocked rest is 30 less the transfer's fees.
    const unlocked = left.reduce((a, b) => a + b, 0);
    expect(unlocked).toBeLessThan(30);
    expect(unlocked).toBeGreaterThan(25);
  }, 30_000);

  it("the SDK's hashPreparedTransaction and ours agree on the public vector", async () => {
    const viz = await import("@canton-network/core-tx-visualizer");
    const ours = preparedTransactionHash(fromBinary(PreparedTransactionSchema, Buffer.from(VECTORS.preparedTransaction.base64, "base64")));
    expect(await viz.hashPreparedTransaction(VECTORS.preparedTransaction.base64, "base64")).toBe(Buffer.from(ours).toString("base64"));
  });
});
