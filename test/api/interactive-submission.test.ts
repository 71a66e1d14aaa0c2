/**
 * Interactive submission over real sockets, by a client holding only an Ed25519 key: prepare on the
 * JSON Ledger API, sign the returned hash, execute. The hash is recomputed from the returned bytes;
 * created contracts get the ids the prepared transaction showed (plus the commit suffix); bad
 * signatures, tampered bytes, replays and stale transactions are refused and change nothing.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PreparedTransactionSchema, type PreparedTransaction } from "../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { sampledKey } from "../../src/api/http/prepared-texts.js";
import { preparedTransactionHash } from "../../src/external/prepared-transaction-hash.js";
import { jsonSignature, keyHolder, onboardExternal, type KeyHolder } from "../support/external-key-holder.js";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";
import { identityRSignature } from "../support/weak-ed25519.js";

let s: TestServer;
/** The node's data directory, kept across the restart of the last test. */
const dir = mkdtempSync(join(tmpdir(), "ccwallet-interactive-"));
let holder: KeyHolder;
let party: string;
let token: string;

beforeAll(async () => {
  s = await startTestServer({}, dir);
  holder = keyHolder();
  ({ party, token } = await onboardExternal(s, holder, "ext-carol"));
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const iouCreate = (amount: string) => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: party, owner: party, currency: "CC", amount, observers: [] } } });

async function prepare(command: unknown) {
  const r = await s.json("POST", "/v2/interactive-submission/prepare", { commands: [command], commandId: `ext-${++n}`, actAs: [party] }, token);
  expect(r.status, r.text).toBe(200);
  return { base64: r.body.preparedTransaction as string, hash: Buffer.from(r.body.preparedTransactionHash, "base64"), body: r.body };
}

const executeBody = (preparedTransaction: string, signature: Buffer, signedBy = holder.fingerprint) => ({
  preparedTransaction,
  partySignatures: { signatures: [{ party, signatures: [jsonSignature(signature, signedBy)] }] },
  submissionId: `sub-${++n}`,
  hashingSchemeVersion: "HASHING_SCHEME_VERSION_V2",
});

const executeAndWait = (body: unknown) => s.json("POST", "/v2/interactive-submission/executeAndWait", body, token);
const ious = async () =>
  (await s.json("POST", "/v2/state/active-contracts", { activeAtOffset: (await s.json("GET", "/v2/state/ledger-end", undefined, token)).body.offset, eventFormat: { filtersByParty: { [party]: {} }, verbose: true } }, token)).body
    .map((e: any) => e.contractEntry.JsActiveContract.createdEvent)
    .filter((e: any) => e.templateId.endsWith(":Ccwallet.Demo.Iou:Iou"));
const decoded = (base64: string): PreparedTransaction => fromBinary(PreparedTransactionSchema, Buffer.from(base64, "base64"));
const preparedTransactionHashHex = (base64: string) => Buffer.from(preparedTransactionHash(decoded(base64))).toString("hex");

describe("interactive submission, JSON Ledger API", () => {
  it("prepares a create whose hash the bytes reproduce, executes it signed, and the contract has the prepared id", async () => {
    const p = await prepare(iouCreate("5"));
    expect(p.body.hashingSchemeVersion).toBe("HASHING_SCHEME_VERSION_V2");
    const prepared = decoded(p.base64);
    expect(Buffer.from(preparedTransactionHash(prepared))).toEqual(p.hash);
    expect(prepared.metadata?.submitterInfo).toMatchObject({ actAs: [party], commandId: `ext-${n}` });
    expect(prepared.metadata?.synchronizerId).toBe(s.server.api.identity.synchronizerId);
    const node = prepared.transaction!.nodes[0].versionedNode.value!.nodeType;
    expect(node.case).toBe("create");
    const localId = (node.value as { contractId: string }).contractId;
    expect(localId).toMatch(/^00[0-9a-f]{64}$/);

    const before = await ious();
    const done = await executeAndWait(executeBody(p.base64, holder.sign(p.hash)));
    expect(done.status, done.text).toBe(200);
    expect(done.body.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    const after = await ious();
    expect(after).toHaveLength(before.length + 1);
    const created = after.find((e: any) => !before.some((b: any) => b.contractId === e.contractId));
    expect(created.contractId.startsWith(localId)).toBe(true);
    expect(created.createArgument).toMatchObject({ amount: "5.0000000000", owner: party });

    const tx = await s.json("POST", "/v2/updates/transaction-by-id", { updateId: done.body.updateId, transactionFormat: { eventFormat: { filtersByParty: { [party]: {} } }, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } }, token);
    expect(tx.status, tx.text).toBe(200);
    expect(Buffer.from(tx.body.transaction.externalTransactionHash, "base64")).toEqual(p.hash);

    // A replay of the same signed transaction is a duplicate and creates nothing.
    const replay = await executeAndWait(executeBody(p.base64, holder.sign(p.hash)));
    expect(replay.status, replay.text).toBe(409);
    expect(replay.body.code).toBe("DUPLICATE_COMMAND");
    expect(await ious()).toHaveLength(after.length);
  });

  it("commits one of two concurrent executes of the same signed transaction; the other is a duplicate", async () => {
    // The first takes the node's own interpretation; the others find it gone and re-interpret.
    const p = await prepare(iouCreate("6"));
    const before = await ious();
    const answers = await Promise.all([0, 1, 2].map(() => executeAndWait(executeBody(p.base64, holder.sign(p.hash)))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code, a.text).toBe("DUPLICATE_COMMAND");
    expect(await ious()).toHaveLength(before.length + 1);
  });

  it("answers a replay through the asynchronous execute on the completion stream, as Submit answers a duplicate", async () => {
    const p = await prepare(iouCreate("6"));
    const body = executeBody(p.base64, holder.sign(p.hash));
    const first = await executeAndWait(body);
    expect(first.status, first.text).toBe(200);
    const count = (await ious()).length;
    const end = (await s.json("GET", "/v2/state/ledger-end", undefined, token)).body.offset as number;

    const replay = await s.json("POST", "/v2/interactive-submission/execute", { ...body, submissionId: "replayed" }, token);
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body).toEqual({});
    let rejected: any;
    for (let i = 0; i < 50 && !rejected; i++) {
      const c = await s.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=100", { parties: [party], beginExclusive: end }, token);
      rejected = (c.body as any[]).map((r) => r.completionResponse.Completion?.value).find((v) => v?.submissionId === "replayed");
    }
    expect(rejected).toMatchObject({ commandId: `ext-${n - 1}`, status: { code: 6 } });
    expect(rejected.status.message).toContain("DUPLICATE_COMMAND");
    expect(rejected.updateId ?? "").toBe("");
    expect(await ious()).toHaveLength(count);
  });

  it("executes an exercise whose result names the contracts it creates (unsuffixed in the prepared transaction)", async () => {
    const made = await executeAndWait(executeBody(...(await signed(iouCreate("10")))));
    expect(made.status, made.text).toBe(200);
    const iou = (await ious()).find((e: any) => e.createArgument.amount === "10.0000000000");
    const p = await prepare({ ExerciseCommand: { templateId: IOU, contractId: iou.contractId, choice: "Iou_Split", choiceArgument: { splitAmount: "4" } } });
    const prepared = decoded(p.base64);
    const exercise = prepared.transaction!.nodes.find((x) => x.versionedNode.value?.nodeType.case === "exercise")!.versionedNode.value!.nodeType.value as any;
    const result = exercise.exerciseResult.sum.value.fields.map((f: any) => f.value.sum.value as string);
    expect(result.every((cid: string) => /^00[0-9a-f]{64}$/.test(cid))).toBe(true);
    expect(prepared.metadata!.inputContracts.map((c) => c.contract.value?.contractId)).toEqual([iou.contractId]);

    const done = await executeAndWait(executeBody(p.base64, holder.sign(p.hash)));
    expect(done.status, done.text).toBe(200);
    const amounts = (await ious()).map((e: any) => [e.contractId.slice(0, 66), e.createArgument.amount]);
    expect(amounts).toEqual(expect.arrayContaining([[result[0], "4.0000000000"], [result[1], "6.0000000000"]]));
    expect(amounts.some(([cid]: string[]) => iou.contractId.startsWith(cid))).toBe(false);
  });

  it("refuses bad signatures and tampered bytes, changing nothing", async () => {
    const p = await prepare(iouCreate("7"));
    const before = await ious();
    const wrong = holder.sign(p.hash);
    wrong[3] ^= 0x01;
    const other = keyHolder();
    const tampered = decoded(p.base64);
    const arg = (tampered.transaction!.nodes[0].versionedNode.value!.nodeType.value as any).argument.sum.value.fields.find((f: any) => f.label === "amount");
    arg.value.sum.value = "7000.0000000000";
    const tamperedBase64 = Buffer.from(toBinary(PreparedTransactionSchema, create(PreparedTransactionSchema, tampered))).toString("base64");
    const cases: [string, unknown, number, RegExp][] = [
      ["a wrong signature", executeBody(p.base64, wrong), 400, /valid signatures from distinct keys/],
      ["another key's signature", executeBody(p.base64, other.sign(p.hash)), 400, /valid signatures from distinct keys/],
      ["the party's own signature with the identity as R", executeBody(p.base64, identityRSignature(holder.privateKey, p.hash)), 400, /valid signatures from distinct keys/],
      ["another key's fingerprint", executeBody(p.base64, other.sign(p.hash), other.fingerprint), 400, /is not a valid key for/],
      ["no signature", { ...executeBody(p.base64, wrong), partySignatures: { signatures: [] } }, 400, /did not provide an external signature/],
      ["tampered bytes signed as prepared", executeBody(tamperedBase64, holder.sign(p.hash)), 400, /valid signatures from distinct keys/],
      ["no hashing scheme", { ...executeBody(p.base64, holder.sign(p.hash)), hashingSchemeVersion: "HASHING_SCHEME_VERSION_UNSPECIFIED" }, 400, /hashing scheme/],
      ["no submission id", { ...executeBody(p.base64, holder.sign(p.hash)), submissionId: "" }, 400, /submission_id/],
      ["bytes that are not a prepared transaction", { ...executeBody(p.base64, holder.sign(p.hash)), preparedTransaction: "AAAA" }, 400, /./],
    ];
    for (const [what, body, status, message] of cases) {
      const r = await executeAndWait(body);
      expect(r.status, `${what}: ${r.text}`).toBe(status);
      expect(r.body.cause, what).toMatch(message);
    }
    // Another user, without rights for the party, may not execute even a validly signed transaction.
    const stranger = await s.partyUser("stranger");
    const r = await s.json("POST", "/v2/interactive-submission/executeAndWait", executeBody(p.base64, holder.sign(p.hash)), stranger.token);
    expect(r.status, r.text).toBe(403);
    expect(await ious()).toEqual(before);
  });

  it("decodes a text that only shares a prepared text's cache key from its own bytes, and leaves the prepared one", async () => {
    const p = await prepare(iouCreate("9"));
    const before = await ious();
    // One digit of the amount changed in the bytes, where the base64 changes only at characters the
    // cache's key does not sample: same key, different transaction.
    const bytes = Buffer.from(p.base64, "base64");
    const at = bytes.indexOf("9.0000000000");
    expect(at).toBeGreaterThan(0);
    const impostors = Array.from({ length: 10 }, (_, k) => {
      const b = Buffer.from(bytes);
      b[at + 2 + k] = "1".charCodeAt(0);
      return b.toString("base64");
    });
    const impostor = impostors.find((t) => sampledKey(t) === sampledKey(p.base64));
    expect(impostor).toBeDefined();
    expect(impostor).not.toBe(p.base64);
    const refused = await executeAndWait(executeBody(impostor!, holder.sign(p.hash)));
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.cause).toMatch(/valid signatures from distinct keys/);
    expect(refused.body.cause).toContain(preparedTransactionHashHex(impostor!));
    expect(await ious()).toEqual(before);
    const done = await executeAndWait(executeBody(p.base64, holder.sign(p.hash)));
    expect(done.status, done.text).toBe(200);
    expect((await ious()).map((e: any) => e.createArgument.amount)).toContain("9.0000000000");
  });

  it("refuses a transaction whose input was consumed after it was prepared", async () => {
    await executeAndWait(executeBody(...(await signed(iouCreate("3")))));
    const iou = (await ious()).find((e: any) => e.createArgument.amount === "3.0000000000");
    const split = (amount: string) => prepare({ ExerciseCommand: { templateId: IOU, contractId: iou.contractId, choice: "Iou_Split", choiceArgument: { splitAmount: amount } } });
    const [first, second] = [await split("1"), await split("2")];
    expect((await executeAndWait(executeBody(first.base64, holder.sign(first.hash)))).status).toBe(200);
    const before = await ious();
    const stale = await executeAndWait(executeBody(second.base64, holder.sign(second.hash)));
    // Canton's InactiveContracts: the resource is missing (NOT_FOUND, 404), not contention, no retry.
    expect(stale.status, stale.text).toBe(404);
    expect(stale.body).toMatchObject({ code: "LOCAL_VERDICT_INACTIVE_CONTRACTS", errorCategory: 11, grpcCodeValue: 5 });
    expect(stale.body).not.toHaveProperty("retryInfo");
    expect(await ious()).toEqual(before);
  });

  it("commits its own interpretation of exactly what it prepared, and re-interprets what a restart made it forget", async () => {
    const remembered = () => s.server.api.prepared.size;
    const start = remembered();
    const [now, later] = [await prepare(iouCreate("8")), await prepare(iouCreate("9"))];
    expect(remembered()).toBe(start + 2);
    const done = await executeAndWait(executeBody(now.base64, holder.sign(now.hash)));
    expect(done.status, done.text).toBe(200);
    expect(remembered()).toBe(start + 1);

    await s.stop();
    s = await startTestServer({}, dir);
    token = await s.token("ext-carol");
    expect(remembered()).toBe(0);
    const before = await ious();
    const after = await executeAndWait(executeBody(later.base64, holder.sign(later.hash)));
    expect(after.status, after.text).toBe(200);
    const created = (await ious()).filter((e: any) => !before.some((b: any) => b.contractId === e.contractId));
    const localId = (decoded(later.base64).transaction!.nodes[0].versionedNode.value!.nodeType.value as { contractId: string }).contractId;
    expect(created.map((e: any) => [e.contractId.slice(0, 66), e.createArgument.amount])).toEqual([[localId, "9.0000000000"]]);
  });

  it("answers the preferred package of a package name", async () => {
    const r = await s.json("GET", `/v2/interactive-submission/preferred-package-version?packageName=ccwallet-demo&parties=${encodeURIComponent(party)}`, undefined, token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.packagePreference).toMatchObject({ packageReference: { packageName: "ccwallet-demo", packageId: expect.stringMatching(/^[0-9a-f]{64}$/) }, synchronizerId: s.server.api.identity.synchronizerId });
    const many = await s.json("POST", "/v2/interactive-submission/preferred-packages", { packageVettingRequirements: [{ parties: [party], packageName: "splice-amulet" }] }, token);
    expect(many.status, many.text).toBe(200);
    expect(many.body.packageReferences).toEqual([expect.objectContaining({ packageName: "splice-amulet", packageVersion: "0.1.14" })]);
  });
});

/** A prepared command and the holder's signature of its hash, ready for `executeBody`. */
async function signed(command: unknown): Promise<[string, Buffer]> {
  const p = await prepare(command);
  return [p.base64, holder.sign(p.hash)];
}
