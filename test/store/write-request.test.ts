/**
 * The contracts a transaction creates are written from its create nodes' JSON by the SQLite writer
 * when the records are the nodes' own values (as the interpreter builds them), and encoded on the
 * event loop otherwise. Either way the stored record is the one `encodeRecord` writes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ContractRecord, CreateNodeRecord, NodeRecord } from "../../src/ledger/records.js";
import type { TransactionCommit } from "../../src/ledger/store-port.js";
import { encodeRecord } from "../../src/store/codec.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createdRecords, writeRequestOf, type WriteRequest } from "../../src/store/sqlite/write-request.js";

const ALICE = "alice::1220aa";
const BOB = "bob::1220bb";
const AT = 1_700_000_000_000_000n;
type Created = Omit<ContractRecord, "createdOffset">;

/** A create as the interpreter makes it: the record and the node share their values. */
function created(nodeId: number, updateId: string, options: { keyed?: boolean; salt?: boolean } = {}): { record: Created; node: CreateNodeRecord } {
  const payload = { owner: ALICE, amount: { initialAmount: "10.0000000000", ratePerRound: { rate: "0.0000190259" } }, note: "é ∑ \"quoted\"" };
  const signatories = [ALICE];
  const observers = [BOB];
  const key = options.keyed ? { owner: ALICE, label: "k" } : undefined;
  const salt = options.salt === false ? undefined : `salt-${nodeId}`;
  const contractId = `00cid-${updateId}-${nodeId}`;
  const record: Created = {
    contractId,
    templateId: "pkg:Demo.Iou:Iou",
    packageName: "demo",
    payload,
    signatories,
    observers,
    ...(key ? { key, keyHash: `hash-${nodeId}` } : {}),
    createdAt: AT,
    createUpdateId: updateId,
    nodeId,
    ...(salt ? { salt } : {}),
  };
  const node: CreateNodeRecord = {
    kind: "create",
    nodeId,
    contractId,
    templateId: record.templateId,
    packageName: record.packageName,
    payload,
    signatories,
    observers,
    ...(key ? { key } : {}),
    ...(salt ? { salt } : {}),
    witnesses: [ALICE, BOB],
  };
  return { record, node };
}

function commit(updateId: string, creates: Created[], nodes: NodeRecord[], effectiveAt = AT): TransactionCommit {
  const completion = { commandId: `cmd-${updateId}`, userId: "u", actAs: [ALICE], submissionId: "s", deduplication: { kind: "none" } as const, recordTime: effectiveAt, updateId };
  return {
    kind: "transaction",
    inputs: [],
    archives: [],
    creates,
    transaction: { updateId, commandId: completion.commandId, workflowId: "", submitters: [ALICE], effectiveAt, recordTime: effectiveAt, nodes },
    completion,
    onConflict: () => completion,
  };
}

const asTransaction = (r: WriteRequest) => r as Extract<WriteRequest, { kind: "transaction" }>;

describe("write requests: created contracts' records", () => {
  it("leaves a record that is its create node's values to the writer, which writes exactly what encodeRecord would", () => {
    const plain = created(0, "u1");
    const keyed = created(1, "u1", { keyed: true });
    const unsalted = created(2, "u1", { salt: false });
    const all = [plain, keyed, unsalted];
    const request = asTransaction(writeRequestOf(commit("u1", all.map((c) => c.record), all.map((c) => c.node))));
    expect(request.creates.map((c) => c.record)).toEqual([undefined, undefined, undefined]);
    const records = createdRecords(request);
    expect(all.map((c) => records.get(c.record.nodeId))).toEqual(all.map((c) => encodeRecord(c.record)));
  });

  it("encodes a record on the loop when it is not its node's values", () => {
    const same = created(0, "u2");
    // Equal JSON but another object: nothing says the two were built from one value.
    const copied = created(1, "u2");
    const copy = { ...copied.record, payload: structuredClone(copied.record.payload) };
    // Created at another time than the transaction's ledger time.
    const late = created(2, "u2");
    const lateRecord = { ...late.record, createdAt: AT + 1n };
    const request = asTransaction(writeRequestOf(commit("u2", [same.record, copy, lateRecord], [same.node, copied.node, late.node])));
    expect(request.creates.map((c) => c.record)).toEqual([undefined, encodeRecord(copy), encodeRecord(lateRecord)]);
    expect(createdRecords(request).get(0)).toBe(encodeRecord(same.record));
  });

  it("encodes every record on the loop when the nodes hold a bigint (their JSON is not apart)", () => {
    const c = created(0, "u3");
    const node = { ...c.node, payload: { ...(c.node.payload as object), count: 12n } };
    const record = { ...c.record, payload: node.payload };
    const request = asTransaction(writeRequestOf(commit("u3", [record], [node])));
    expect(request.nodes).toBeUndefined();
    expect(request.creates[0].record).toBe(encodeRecord(record));
  });

  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("stores the records the writer made: a store opened afresh reads every contract back as created", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-write-request-"));
    dirs.push(dir);
    const file = join(dir, "ledger.sqlite");
    const first = new SqliteStore({ file });
    const all = [created(0, "u4"), created(1, "u4", { keyed: true }), created(2, "u4", { salt: false })];
    const result = await first.commit(commit("u4", all.map((c) => c.record), all.map((c) => c.node)));
    expect(result.kind).toBe("committed");
    await first.close();
    const again = new SqliteStore({ file });
    try {
      for (const c of all) expect(await again.activeContract(c.record.contractId)).toEqual({ ...c.record, createdOffset: result.offset });
      expect(await again.activeContractByKey("hash-1")).toEqual({ ...all[1].record, createdOffset: result.offset });
    } finally {
      await again.close();
    }
  });
});
