/**
 * The contracts a transaction creates are written from spans of their create nodes' JSON when the
 * records are the nodes' own values (as the interpreter builds them), and encoded on the event
 * loop otherwise. Either way the stored record is the one `encodeRecord` writes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ContractRecord, CreateNodeRecord, NodeRecord } from "../../src/ledger/records.js";
import type { TransactionCommit } from "../../src/ledger/store-port.js";
import { encodeRecord } from "../../src/store/codec.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createRecordText, writeRequestOf, type WriteRequest } from "../../src/store/sqlite/write-request.js";

const ALICE = "alice::1220aa";
const BOB = "bob::1220bb";
const AT = 1_700_000_000_000_000n;
type Created = Omit<ContractRecord, "createdOffset">;

/** A create as the interpreter makes it: the record and the node share their values. */
function created(nodeId: number, updateId: string, options: { keyed?: boolean; salt?: boolean } = {}): { record: Created; node: CreateNodeRecord } {
  // Text that looks like the node's own fields, inside the payload: quoted, so it is escaped.
  const payload = { owner: ALICE, amount: { initialAmount: "10.0000000000", ratePerRound: { rate: "0.0000190259" } }, note: `é ∑ {"kind":"create","nodeId":${nodeId},"salt":"salt-${nodeId}","witnesses":[]}` };
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
const texts = (r: Extract<WriteRequest, { kind: "transaction" }>) => r.creates.map((c) => createRecordText(r, c));

describe("write requests: created contracts' records", () => {
  it("takes a record that is its create node's values from the node's JSON, exactly as encodeRecord writes it", () => {
    const plain = created(0, "u1");
    const keyed = created(1, "u1", { keyed: true });
    const other = created(2, "u1");
    const all = [plain, keyed, other];
    const request = asTransaction(writeRequestOf(commit("u1", all.map((c) => c.record), all.map((c) => c.node))));
    expect(request.creates.map((c) => typeof c.record)).toEqual(["object", "object", "object"]);
    expect(texts(request)).toEqual(all.map((c) => encodeRecord(c.record)));
  });

  it("encodes a record on the loop when it is not its node's values, or the node is not laid out as the interpreter lays it", () => {
    const same = created(0, "u2");
    // Equal JSON but another object: nothing says the two were built from one value.
    const copied = created(1, "u2");
    const copy = { ...copied.record, payload: structuredClone(copied.record.payload) };
    // Created at another time than the transaction's ledger time.
    const late = created(2, "u2");
    const lateRecord = { ...late.record, createdAt: AT + 1n };
    // The node's fields in another order (its JSON would not hold the record's in order).
    const reordered = created(3, "u2");
    const { witnesses, ...rest } = reordered.node;
    const reorderedNode = { witnesses, ...rest };
    // No salt: the salt's text is what finds the node's end.
    const unsalted = created(4, "u2", { salt: false });
    const records = [same.record, copy, lateRecord, reordered.record, unsalted.record];
    const request = asTransaction(writeRequestOf(commit("u2", records, [same.node, copied.node, late.node, reorderedNode, unsalted.node])));
    expect(request.creates.map((c) => c.record)).toEqual([request.creates[0].record, ...records.slice(1).map((r) => encodeRecord(r))]);
    expect(typeof request.creates[0].record).toBe("object");
    expect(texts(request)).toEqual(records.map((r) => encodeRecord(r)));
  });

  it("finds the nodes of many creates in one pass, and creates listed out of node order too", () => {
    const all = Array.from({ length: 60 }, (_, i) => created(i, "u5", { keyed: i % 3 === 0 }));
    const forward = asTransaction(writeRequestOf(commit("u5", all.map((c) => c.record), all.map((c) => c.node))));
    expect(forward.creates.every((c) => typeof c.record === "object")).toBe(true);
    expect(texts(forward)).toEqual(all.map((c) => encodeRecord(c.record)));
    const reversed = [...all].reverse();
    const backward = asTransaction(writeRequestOf(commit("u5", reversed.map((c) => c.record), all.map((c) => c.node))));
    expect(backward.creates.every((c) => typeof c.record === "object")).toBe(true);
    expect(texts(backward)).toEqual(reversed.map((c) => encodeRecord(c.record)));
  });

  it("takes time linear in the creates: 6,000 creates of 0.9 KB are one pass (a search per create from the start took 1.4 s)", () => {
    const all = Array.from({ length: 6000 }, (_, i) => created(i, "u7"));
    for (const c of all) (c.record.payload as { note: string }).note = "x".repeat(600);
    const request = commit("u7", all.map((c) => c.record), all.map((c) => c.node));
    const started = performance.now();
    const written = asTransaction(writeRequestOf(request));
    const took = performance.now() - started;
    expect(written.creates.every((c) => typeof c.record === "object")).toBe(true);
    // Measured ~55 ms here; searching from the start for each create took ~1.4 s.
    expect(took).toBeLessThan(400);
  });

  it("encodes a record on the loop when its own fields are not in the interpreter's order or it has others", () => {
    const a = created(0, "u6");
    const { contractId, ...rest } = a.record;
    const reordered = { ...rest, contractId };
    const b = created(1, "u6");
    const extra = { ...b.record, note: "more" } as typeof b.record;
    const request = asTransaction(writeRequestOf(commit("u6", [reordered, extra], [a.node, b.node])));
    expect(request.creates.map((c) => c.record)).toEqual([encodeRecord(reordered), encodeRecord(extra)]);
  });

  it("encodes every record on the loop when the nodes hold a bigint (their JSON is not apart)", () => {
    const c = created(0, "u3");
    const node = { ...c.node, payload: { ...(c.node.payload as object), count: 12n } };
    const record = { ...c.record, payload: node.payload };
    const request = asTransaction(writeRequestOf(commit("u3", [record], [node])));
    expect(request.nodes).toBeUndefined();
    expect(request.creates[0].record).toBe(encodeRecord(record));
    expect(texts(request)).toEqual([encodeRecord(record)]);
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
