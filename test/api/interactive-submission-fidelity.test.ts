/**
 * Three fidelity points of the interactive submission service, on a metered node over real
 * sockets (JSON and gRPC): verbose hashing (the trace is there only when asked for and ends on
 * the returned hash), Canton 3.4's cost estimation (on by default, off when disabled, signatures
 * priced, equal to what the execute is charged), and Fetch nodes of choice bodies in the prepared
 * transaction (hashed like the wallet SDK hashes them, absent from the committed events).
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InteractiveSubmissionService, PreparedTransactionSchema, type PreparedTransaction } from "../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { SigningAlgorithmSpec } from "../../gen/com/daml/ledger/api/v2/crypto_pb.js";
import { preparedTransactionHash } from "../../src/external/prepared-transaction-hash.js";
import { SIGNATURE_TRAFFIC_BYTES } from "../../src/network/traffic/traffic-cost.js";
import { startCc, type CcFixture } from "../support/cc-fixture.js";
import { jsonSignature, keyHolder, onboardExternal, type KeyHolder } from "../support/external-key-holder.js";
import { IOU } from "../support/test-server.js";

let fx: CcFixture;
let holder: KeyHolder;
let party: string;
let token: string;
let alice: { party: string; token: string };

beforeAll(async () => {
  fx = await startCc();
  holder = keyHolder();
  ({ party, token } = await onboardExternal(fx.t, holder, "ext-fidelity"));
  alice = await fx.t.partyUser("alice");
});
afterAll(() => fx?.stop());

let n = 0;
const iouCreate = () => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: party, owner: party, currency: "CC", amount: "3", observers: [] } } });
const prepare = async (command: unknown, extra: Record<string, unknown> = {}) => {
  const r = await fx.t.json("POST", "/v2/interactive-submission/prepare", { commands: [command], commandId: `fid-${++n}`, actAs: [party], ...extra }, token);
  expect(r.status, r.text).toBe(200);
  return r.body;
};
const executeAndWait = async (body: { preparedTransaction: string; preparedTransactionHash: string }) => {
  const hash = Buffer.from(body.preparedTransactionHash, "base64");
  const r = await fx.t.json(
    "POST",
    "/v2/interactive-submission/executeAndWait",
    {
      preparedTransaction: body.preparedTransaction,
      partySignatures: { signatures: [{ party, signatures: [jsonSignature(holder.sign(hash), holder.fingerprint)] }] },
      submissionId: `fid-sub-${++n}`,
      hashingSchemeVersion: "HASHING_SCHEME_VERSION_V2",
    },
    token,
  );
  expect(r.status, r.text).toBe(200);
  return r.body.updateId as string;
};
const decoded = (base64: string): PreparedTransaction => fromBinary(PreparedTransactionSchema, Buffer.from(base64, "base64"));
const lastLine = (details: string) => details.trimEnd().split("\n").at(-1);

describe("verbose hashing", () => {
  it("JSON: the trace is absent unless asked for; asked for, it ends on the returned hash", async () => {
    expect(await prepare(iouCreate())).not.toHaveProperty("hashingDetails");
    expect(await prepare(iouCreate(), { verboseHashing: false })).not.toHaveProperty("hashingDetails");
    const p = await prepare(iouCreate(), { verboseHashing: true });
    const hex = Buffer.from(p.preparedTransactionHash, "base64").toString("hex");
    expect(p.hashingDetails).toMatch(/^'00000030' # Hash Purpose\n'02' # 02 \(Hashing Scheme Version\)\n/);
    expect(p.hashingDetails).toContain("    # Create Node");
    expect(lastLine(p.hashingDetails)).toBe(`# Prepared Transaction Hash: ${hex}`);
    // Tracing does not change the hash: it is still the one of the returned bytes.
    expect(Buffer.from(preparedTransactionHash(decoded(p.preparedTransaction))).toString("hex")).toBe(hex);
  });

  it("gRPC: hashing_details only with verbose_hashing", async () => {
    const client = createClient(InteractiveSubmissionService, createGrpcTransport({ baseUrl: fx.t.grpc }));
    const headers = { authorization: `Bearer ${token}` };
    const req = (verboseHashing: boolean) => ({
      commandId: `fid-grpc-${++n}`,
      actAs: [party],
      verboseHashing,
      commands: [{ command: { case: "create" as const, value: { templateId: { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" }, createArguments: iouArgs(party) } } }],
    });
    const plain = await client.prepareSubmission(req(false), { headers });
    expect(plain.hashingDetails).toBeUndefined();
    const verbose = await client.prepareSubmission(req(true), { headers });
    expect(lastLine(verbose.hashingDetails!)).toBe(`# Prepared Transaction Hash: ${Buffer.from(verbose.preparedTransactionHash).toString("hex")}`);
    expect(verbose.costEstimation?.totalTrafficCostEstimation).toBeGreaterThan(5_000n);
  });
});

describe("cost estimation", () => {
  it("is returned by default, priced like the commit; disabled gives none; expected signatures add their bytes", async () => {
    const p = await prepare(iouCreate());
    const est = p.costEstimation;
    expect(est.estimationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(est.confirmationResponseTrafficCostEstimation).toBe(0);
    expect(est.totalTrafficCostEstimation).toBe(est.confirmationRequestTrafficCostEstimation);
    expect(est.totalTrafficCostEstimation).toBeGreaterThan(5_000);

    expect(await prepare(iouCreate(), { estimateTrafficCost: { disabled: true } })).not.toHaveProperty("costEstimation");
    const three = await prepare(iouCreate(), { estimateTrafficCost: { expectedSignatures: Array(3).fill("SIGNING_ALGORITHM_SPEC_ED25519") } });
    // The default is the party's threshold (1 signature); three expected add two signatures' bytes.
    expect(three.costEstimation.totalTrafficCostEstimation - est.totalTrafficCostEstimation).toBe(2 * Number(SIGNATURE_TRAFFIC_BYTES));

    // What the execute is charged is the estimate.
    const updateId = await executeAndWait(p);
    const committed = await fx.t.server.api.store.transactionById(updateId);
    expect(committed?.paidTrafficCost).toBe(BigInt(est.totalTrafficCostEstimation));
    const tx = await fx.t.json("POST", "/v2/updates/transaction-by-id", { updateId, transactionFormat: { eventFormat: { filtersByParty: { [party]: {} } }, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } }, token);
    expect(tx.body.transaction.paidTrafficCost).toBe(est.totalTrafficCostEstimation);
  });

  it("gRPC takes hints as the proto's repeated SigningAlgorithmSpec", async () => {
    const client = createClient(InteractiveSubmissionService, createGrpcTransport({ baseUrl: fx.t.grpc }));
    const res = await client.prepareSubmission(
      {
        commandId: `fid-grpc-${++n}`,
        actAs: [party],
        estimateTrafficCost: { disabled: true, expectedSignatures: [SigningAlgorithmSpec.ED25519] },
        commands: [{ command: { case: "create", value: { templateId: { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" }, createArguments: iouArgs(party) } } }],
      },
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(res.costEstimation).toBeUndefined();
  });
});

describe("Fetch nodes", () => {
  it("a choice body's fetch is a child of its exercise, hashed as the SDK hashes it, and no event of the commit", async () => {
    const created = async (amount: string) => {
      const r = await fx.t.json(
        "POST",
        "/v2/commands/submit-and-wait-for-transaction",
        { commands: { commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: alice.party, owner: party, currency: "CC", amount, observers: [] } } }], commandId: `fid-c-${++n}`, actAs: [alice.party] } },
        alice.token,
      );
      expect(r.status, r.text).toBe(200);
      return r.body.transaction.events[0].CreatedEvent.contractId as string;
    };
    const a = await created("7");
    const b = await created("5");
    const p = await prepare({ ExerciseCommand: { templateId: IOU, contractId: a, choice: "Iou_Compare", choiceArgument: { otherCid: b } } }, { verboseHashing: true });
    const prepared = decoded(p.preparedTransaction);
    const nodes = prepared.transaction!.nodes.map((x) => ({ id: x.nodeId, node: x.versionedNode.value!.nodeType }));
    const exercise = nodes.find((x) => x.node.case === "exercise")!.node.value as { children: string[]; contractId: string };
    const fetch = nodes.find((x) => x.node.case === "fetch");
    expect(fetch).toBeDefined();
    expect(exercise.children).toEqual([fetch!.id]);
    expect(prepared.transaction!.roots).toHaveLength(1);
    expect(fetch!.node.value).toMatchObject({
      lfVersion: "2.1",
      contractId: b,
      packageName: "ccwallet-demo",
      templateId: { moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" },
      signatories: [alice.party],
      stakeholders: [alice.party, party].sort(),
      actingParties: [alice.party, party].sort(),
    });
    expect(prepared.metadata!.inputContracts.map((c) => (c.contract.value as { contractId: string }).contractId).sort()).toEqual([a, b].sort());
    expect(p.hashingDetails).toContain("# Fetch Node");

    // An independent implementation (the wallet SDK's visualizer) gets the same hash.
    const viz = await import("@canton-network/core-tx-visualizer");
    expect(await viz.hashPreparedTransaction(p.preparedTransaction, "base64")).toBe(p.preparedTransactionHash);

    // It executes (the re-interpretation records the same fetch), and the commit shows the exercise only.
    const updateId = await executeAndWait(p);
    const tree = await fx.t.json("POST", "/v2/updates/transaction-by-id", { updateId, transactionFormat: { eventFormat: { filtersByParty: { [party]: {} }, verbose: true }, transactionShape: "TRANSACTION_SHAPE_LEDGER_EFFECTS" } }, token);
    expect(tree.status, tree.text).toBe(200);
    expect(tree.body.transaction.events.map((e: Record<string, unknown>) => Object.keys(e)[0])).toEqual(["ExercisedEvent"]);
    expect(tree.body.transaction.events[0].ExercisedEvent).toMatchObject({ choice: "Iou_Compare", exerciseResult: "2.0000000000", lastDescendantNodeId: 0 });
  });
});

const iouArgs = (owner: string) => ({
  fields: [
    { label: "issuer", value: { sum: { case: "party" as const, value: owner } } },
    { label: "owner", value: { sum: { case: "party" as const, value: owner } } },
    { label: "currency", value: { sum: { case: "text" as const, value: "CC" } } },
    { label: "amount", value: { sum: { case: "numeric" as const, value: "1" } } },
    { label: "observers", value: { sum: { case: "list" as const, value: { elements: [] } } } },
  ],
});
