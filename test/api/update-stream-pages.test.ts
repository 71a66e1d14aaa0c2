/**
 * Update streams read the store in pages bounded by size as well as by count: a page stays in
 * memory for as long as its reader stalls, and 250 transactions of 1.2 MB each made every paused
 * stream hold ~300 MB (a hostile review ran the node out of memory with 150 of them). The pages
 * still add up to every transaction, past rejections and the pages that size cut short.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { STREAM_PAGE_BYTES } from "../../src/ledger/stream-page-budget.js";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
const created: string[] = [];

const wildcard = (party: string) => ({ filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } });
const updateFormat = (party: string) => ({ includeTransactions: { eventFormat: wildcard(party), transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } });

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("usp-alice");
  // 12 transactions of ~180 KB (three Ious with 60,000-character currencies), a rejection among them and one last.
  const currency = "X".repeat(60_000);
  for (let i = 0; i < 12; i++) {
    const iou = { CreateCommand: { templateId: IOU, createArguments: { issuer: alice.party, owner: alice.party, currency, amount: String(i + 1), observers: [] } } };
    const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", { commands: { commands: [iou, iou, iou], commandId: `usp-${i}`, actAs: [alice.party] } }, alice.token);
    expect(r.status, r.text).toBe(200);
    created.push(r.body.transaction.updateId);
    if (i === 5 || i === 11) {
      const dup = await s.json("POST", "/v2/commands/submit-and-wait", { commands: [iou], commandId: `usp-${i}`, actAs: [alice.party] }, alice.token);
      expect(dup.status).toBe(409);
    }
  }
}, 60_000);
afterAll(() => s?.stop());

describe("update stream pages", () => {
  it("hold at most about a megabyte of transactions, and add up to all of them", async () => {
    const read = vi.spyOn(s.server.store, "transactions");
    try {
      const end = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
      const r = await s.json("POST", "/v2/updates", { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat(alice.party) }, alice.token);
      expect(r.status, r.text.slice(0, 200)).toBe(200);
      const ids = r.body.map((u: { update: { Transaction: { value: { updateId: string } } } }) => u.update.Transaction.value.updateId);
      expect(ids).toEqual(created);
      const streamReads = read.mock.calls.map((args, i) => ({ args, rows: read.mock.results[i]!.value as Promise<unknown[]> })).filter(({ args }) => args[3] === STREAM_PAGE_BYTES);
      expect(streamReads.length).toBeGreaterThan(1);
      const size = (rows: unknown[]) => JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)).length;
      // A page ends with the row that reaches the budget: at most the budget and one transaction.
      for (const { rows } of streamReads) expect(size(await rows)).toBeLessThan(STREAM_PAGE_BYTES + 200_000);
    } finally {
      read.mockRestore();
    }
  });

  it("give an open stream's catch-up the same transactions", async () => {
    const r = await s.json("POST", "/v2/updates?stream_idle_timeout_ms=300", { beginExclusive: 0, updateFormat: updateFormat(alice.party) }, alice.token);
    expect(r.status).toBe(200);
    const ids = r.body.filter((u: { update: { Transaction?: unknown } }) => u.update.Transaction).map((u: { update: { Transaction: { value: { updateId: string } } } }) => u.update.Transaction.value.updateId);
    expect(ids).toEqual(created);
  });
});
