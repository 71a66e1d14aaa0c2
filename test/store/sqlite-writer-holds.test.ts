/** The SQLite writer thread under concurrent, conflicting batches: money, keys, dedup, offsets, close and a failed sync. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CommitResult } from "../../src/ledger/store-port.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { contract, txCommit } from "./conformance.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function fresh(): { store: SqliteStore; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "ccwallet-review-"));
  dirs.push(dir);
  const file = join(dir, "ledger.sqlite");
  return { store: new SqliteStore({ file }), file };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("SqliteStore writer thread: what held", () => {
  it("spends each contract once, uses each key once, deduplicates once, across turns, groups and reopen; offsets dense; ends in order", async () => {
    const { store, file } = fresh();
    const ends: bigint[] = [];
    store.onLedgerEnd((end) => ends.push(end));
    const coins = Array.from({ length: 60 }, () => contract());
    for (const c of coins) expect((await store.commit(txCommit({ creates: [c] }))).kind).toBe("committed");
    const spends: { coin: string; result: Promise<CommitResult> }[] = [];
    const keyed: Promise<CommitResult>[] = [];
    const deduped: Promise<CommitResult>[] = [];
    // Six turns: each spends every coin again (several batches with the writer at once).
    for (let round = 0; round < 6; round++) {
      for (const c of coins) spends.push({ coin: c.contractId, result: store.commit(txCommit({ archives: [c.contractId], creates: [contract()] })) });
      for (let i = 0; i < 5; i++) keyed.push(store.commit(txCommit({ creates: [contract({ keyHash: `key-${i}` })] })));
      for (let i = 0; i < 5; i++) deduped.push(store.commit(txCommit({ commandId: `same-${i}`, dedup: { changeKey: `ck-${i}`, since: 0n } })));
      await turn();
    }
    const spent = await Promise.all(spends.map(async (s) => ({ coin: s.coin, r: await s.result })));
    for (const c of coins) expect(spent.filter((s) => s.coin === c.contractId && s.r.kind === "committed")).toHaveLength(1);
    const keys = await Promise.all(keyed);
    expect(keys.filter((r) => r.kind === "committed")).toHaveLength(5);
    const dups = await Promise.all(deduped);
    expect(dups.filter((r) => r.kind === "committed")).toHaveLength(5);
    const all = [...spent.map((s) => s.r), ...keys, ...dups];
    const offsets = all.map((r) => r.offset).sort((a, b) => (a < b ? -1 : 1));
    const end = await store.ledgerEnd();
    expect(end).toBe(BigInt(coins.length + all.length));
    expect(offsets).toEqual(Array.from({ length: all.length }, (_, i) => BigInt(coins.length + 1 + i)));
    for (let i = 1; i < ends.length; i++) expect(ends[i]).toBeGreaterThanOrEqual(ends[i - 1]);
    await store.close();
    const again = new SqliteStore({ file });
    expect(await again.ledgerEnd()).toBe(end);
    expect((await again.completions(0n, end, 100_000)).map((c) => c.offset)).toEqual(Array.from({ length: Number(end) }, (_, i) => BigInt(i + 1)));
    await again.close();
  });

  it("after a WAL sync it cannot make, refuses every later commit and answers the probe with the error", async () => {
    const { store, file } = fresh();
    expect(await store.commit(txCommit({ creates: [contract()] }))).toEqual({ kind: "committed", offset: 1n });
    await store.close();
    const again = new SqliteStore({ file });
    const worker = (again as unknown as { writer: { worker: import("node:worker_threads").Worker } }).writer.worker;
    await new Promise((resolve) => worker.once("message", resolve)); // the writer's connection is open
    rmSync(`${file}-wal`);
    const first = again.commit(txCommit({ creates: [contract()] }));
    await expect(first).rejects.toThrow(/ENOENT/);
    const queued = [again.commit(txCommit({ creates: [contract()] })), again.commit(txCommit({ creates: [contract()] }))];
    for (const r of await Promise.allSettled(queued)) expect(r.status).toBe("rejected");
    await expect(again.probe()).rejects.toThrow(/ENOENT/);
    expect(await again.ledgerEnd()).toBe(1n);
    await again.close();
  });
});

describe("SqliteStore writer thread: close drains conflicts", () => {
  it("answers every request, conflicts included, when closed right after they were submitted", async () => {
    const { store, file } = fresh();
    const coin = contract();
    expect((await store.commit(txCommit({ creates: [coin] }))).kind).toBe("committed");
    const spends: Promise<CommitResult>[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 20; i++) spends.push(store.commit(txCommit({ archives: [coin.contractId], creates: [contract()] })));
      await turn();
    }
    const closing = store.close();
    const results = await Promise.all(spends);
    await closing;
    expect(results.filter((r) => r.kind === "committed")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "rejected" && r.conflict?.kind === "inactive")).toHaveLength(59);
    const again = new SqliteStore({ file });
    expect(await again.ledgerEnd()).toBe(61n);
    expect((await again.completions(0n, 61n, 1_000)).map((c) => c.offset)).toEqual(Array.from({ length: 61 }, (_, i) => BigInt(i + 1)));
    await again.close();
  });
});
