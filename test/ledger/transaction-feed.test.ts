/**
 * The in-process transaction feed: every committed transaction once, in offset order — whether
 * this process committed it (reported by the ledger) or another writer did (read from the store).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WallClock } from "../../src/ledger/clock.js";
import type { Command, Submission } from "../../src/ledger/commands.js";
import { Ledger } from "../../src/ledger/engine.js";
import { Numeric } from "../../src/ledger/numeric.js";
import type { TransactionRecord } from "../../src/ledger/records.js";
import { TransactionFeed } from "../../src/ledger/transaction-feed.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createRegistry, Iou } from "../../src/templates/index.js";

const A = "alice::1220aa";
let store: SqliteStore;
let ledger: Ledger;
let n = 0;

const submission = (actAs: string[], commands: Command[], commandId = `c${++n}`): Submission => ({
  userId: "u",
  commandId,
  submissionId: `s${++n}`,
  workflowId: "",
  actAs,
  readAs: [],
  commands,
  deduplication: { kind: "none" },
  disclosed: [],
});
const createIou = (owner = A, amount = "1", commandId?: string) =>
  submission([owner], [{ kind: "create", template: Iou as never, payload: { issuer: owner, owner, currency: "CC", amount: Numeric.parse(amount), observers: [] } }], commandId);

beforeEach(async () => {
  store = new SqliteStore({ file: ":memory:" });
  ledger = await Ledger.open({ store, registry: createRegistry(), clock: new WallClock(), maxDeduplicationSeconds: 3600n });
});
afterEach(() => store.close());

const waitFor = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
};

describe("transaction feed", () => {
  it("delivers the ledger's commits in offset order, skipping rejections, and tracks its position", async () => {
    const seen: TransactionRecord[] = [];
    ledger.feed.subscribe((tx) => seen.push(tx));
    // Concurrent submissions share one store flush; a duplicate command id is rejected at commit,
    // and its completion is written after the batch (at offset 4).
    const outcomes = await Promise.all([createIou(A, "1", "same"), createIou(A, "2"), createIou(A, "3", "same"), createIou(A, "4")].map((s) => ledger.submit(s)));
    expect(outcomes.map((o) => o.kind)).toEqual(["committed", "committed", "rejected", "committed"]);
    expect(seen.map((t) => t.offset)).toEqual([1n, 2n, 3n]);
    expect(seen.map((t) => (t.nodes[0].kind === "create" ? (t.nodes[0].payload as { amount: string }).amount : ""))).toEqual(["1.0000000000", "2.0000000000", "4.0000000000"]);
    expect(ledger.feed.position).toBe(4n);
  });

  it("reads from the store what another writer committed, in order with the ledger's own commits", async () => {
    const other = await Ledger.open({ store, registry: createRegistry(), clock: new WallClock(), maxDeduplicationSeconds: 3600n });
    const seen: bigint[] = [];
    ledger.feed.subscribe((tx) => seen.push(tx.offset));
    await other.submit(createIou(A, "1"));
    await ledger.submit(createIou(A, "2"));
    await other.submit(createIou(A, "3"));
    await waitFor(() => seen.length === 3);
    expect(seen).toEqual([1n, 2n, 3n]);
    const read: string[] = [];
    ledger.feed.subscribe((tx) => read.push(tx.updateId));
    await other.submit(createIou(A, "4"));
    await ledger.feed.caughtUp();
    expect(read).toEqual([(await store.transactionByOffset(4n))!.updateId]);
  });

  it("delivers out-of-order reports in order, each once", async () => {
    const feed = await TransactionFeed.open(store);
    const seen: bigint[] = [];
    feed.subscribe((tx) => seen.push(tx.offset));
    const tx = (offset: bigint) => ({ offset }) as TransactionRecord;
    feed.reported(2n, tx(2n));
    feed.reported(3n, null);
    expect(seen).toEqual([]);
    feed.reported(1n, tx(1n));
    feed.reported(2n, tx(2n));
    feed.reported(4n, tx(4n));
    expect(seen).toEqual([1n, 2n, 4n]);
    expect(feed.position).toBe(4n);
  });

  it("keeps delivering to the other readers when one throws", async () => {
    const errors: unknown[] = [];
    const feed = await TransactionFeed.open(store, (e) => errors.push(e));
    const seen: bigint[] = [];
    feed.subscribe(() => {
      throw new Error("reader broke");
    });
    feed.subscribe((tx) => seen.push(tx.offset));
    feed.reported(1n, { offset: 1n } as TransactionRecord);
    expect(seen).toEqual([1n]);
    expect(String(errors[0])).toContain("reader broke");
  });
});
