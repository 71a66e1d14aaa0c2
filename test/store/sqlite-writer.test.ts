/**
 * The SQLite writer thread beside the event loop's connection. Under concurrent, conflicting
 * batches: money, keys, dedup, offsets, close and a failed sync. And what a review found, each
 * failing before its fix: reads while a batch is committed but not yet answered, rights written
 * beside ledger batches, batches after a failed sync, close after a dead checkpoint thread. And
 * that an answer which has arrived is taken at the next commit rather than at the loop's next turn.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import type { CommitResult } from "../../src/ledger/store-port.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { ALICE, BOB, contract, txCommit } from "./conformance.js";

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

/** Blocks the event loop until the writer thread has committed offset `offset` (seen through another connection). */
function spinUntilCommitted(file: string, offset: bigint): void {
  const spy = new Database(file, { readonly: true });
  spy.defaultSafeIntegers(true);
  const max = spy.prepare("SELECT MAX(offset) AS m FROM transactions");
  const deadline = performance.now() + 5_000;
  try {
    while (((max.get() as { m: bigint | null }).m ?? 0n) < offset) {
      if (performance.now() > deadline) throw new Error(`offset ${offset} never committed`);
    }
  } finally {
    spy.close();
  }
}

const HOLDING = "pkg1:Demo.Holding:Holding";
const LOCKED = "pkg1:Demo.Locked:Locked";

describe("ACS reads while a batch is committed but not yet answered", () => {
  it("one party, two templates: a holding locked by the batch is not returned both as the holding and as the lock", async () => {
    const { store, file } = fresh();
    const holding = contract({ template: HOLDING });
    expect(await store.commit(txCommit({ creates: [holding] }))).toEqual({ kind: "committed", offset: 1n });
    // A wallet read of the holdings alone caches the (ALICE, HOLDING) set.
    expect((await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING] })).map((c) => c.contractId)).toEqual([holding.contractId]);

    // The batch that locks the holding: archive it, create the lock.
    const lock = contract({ template: LOCKED });
    const locking = store.commit(txCommit({ archives: [holding.contractId], creates: [lock] }));
    await turn(); // handed to the writer
    spinUntilCommitted(file, 2n); // committed by the writer; its answer waits for the loop

    // Holdings and locked holdings in one read (the read the store wraps in one transaction).
    const both = (await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING, LOCKED] })).map((c) => c.contractId);
    await locking;
    // Either the state before the batch or the state after it, never both halves.
    expect([[holding.contractId], [lock.contractId]]).toContainEqual(both);
    await store.close();
  });

  it("two parties, one template: a holding moved from one to the other by the batch is not returned twice", async () => {
    const { store, file } = fresh();
    const holding = contract({ template: HOLDING, signatories: [ALICE] });
    expect(await store.commit(txCommit({ creates: [holding] }))).toEqual({ kind: "committed", offset: 1n });
    expect((await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING] })).map((c) => c.contractId)).toEqual([holding.contractId]);

    const moved = contract({ template: HOLDING, signatories: [BOB] });
    const transfer = store.commit(txCommit({ archives: [holding.contractId], creates: [moved] }));
    await turn();
    spinUntilCommitted(file, 2n);

    const both = (await store.activeContracts({ parties: [ALICE, BOB], templateIds: [HOLDING] })).map((c) => c.contractId);
    await transfer;
    expect([[holding.contractId], [moved.contractId]]).toContainEqual(both);
    await store.close();
  });
});

describe("reads of the current state between a batch's commit and its answer", () => {
  // The writer has committed the batch, its sync and answer are still to come: a crash now would
  // take it back, so reads show the ledger without it, as its ledger end (offset 1) does.
  const ids = (rows: readonly { contractId: string }[]) => rows.map((c) => c.contractId);

  it("leave out what the batch creates", async () => {
    const { store, file } = fresh();
    const kept = contract({ template: HOLDING });
    expect(await store.commit(txCommit({ creates: [kept] }))).toEqual({ kind: "committed", offset: 1n });
    const created = contract({ template: HOLDING });
    const creating = store.commit(txCommit({ creates: [created] }));
    await turn(); // handed to the writer
    spinUntilCommitted(file, 2n);

    expect(await store.ledgerEnd()).toBe(1n);
    expect(await store.activeContract(created.contractId)).toBeUndefined();
    expect(await store.contractHistory(created.contractId)).toBeUndefined();
    expect(ids(await store.activeContracts({ templateIds: [HOLDING] }))).toEqual([kept.contractId]);
    expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING] }))).toEqual([kept.contractId]);
    expect(ids(await store.activeContracts({ parties: [ALICE] }))).toEqual([kept.contractId]);
    expect(ids(await store.activeContracts({}))).toEqual([kept.contractId]);

    expect(await creating).toEqual({ kind: "committed", offset: 2n });
    expect((await store.activeContract(created.contractId))?.contractId).toBe(created.contractId);
    expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING] }))).toEqual([kept.contractId, created.contractId]);
    await store.close();
  });

  it("keep what the batch archives, in creation order", async () => {
    const { store: first, file } = fresh();
    const [a, b, c] = [contract({ template: HOLDING }), contract({ template: HOLDING }), contract({ template: LOCKED })];
    expect(await first.commit(txCommit({ creates: [a, b, c].map((x, i) => ({ ...x, nodeId: i })) }))).toEqual({ kind: "committed", offset: 1n });
    await first.close();
    // Reopened, so nothing is in the hot cache: the reads below go to the file.
    const store = new SqliteStore({ file });
    const archiving = store.commit(txCommit({ archives: [a.contractId, c.contractId], creates: [contract({ template: HOLDING })] }));
    await turn();
    spinUntilCommitted(file, 2n);

    expect((await store.activeContract(a.contractId))?.contractId).toBe(a.contractId);
    expect((await store.contractHistory(a.contractId))?.archivedOffset).toBeUndefined();
    expect(ids(await store.activeContracts({ templateIds: [HOLDING] }))).toEqual([a.contractId, b.contractId]);
    expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING] }))).toEqual([a.contractId, b.contractId]);
    expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING, LOCKED] }))).toEqual([a.contractId, b.contractId, c.contractId]);
    expect(ids(await store.activeContracts({ parties: [BOB], templateIds: [HOLDING] }))).toEqual([]);
    expect(ids(await store.activeContracts({}))).toEqual([a.contractId, b.contractId, c.contractId]);

    expect(await archiving).toEqual({ kind: "committed", offset: 2n });
    expect(await store.activeContract(a.contractId)).toBeUndefined();
    expect((await store.contractHistory(a.contractId))?.archivedOffset).toBe(2n);
    expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING, LOCKED] }))).toEqual([b.contractId, expect.any(String)]);
    await store.close();
  });
});

describe("directory writes on the event loop's connection beside the writer thread", () => {
  it("grants and revokes rights while ledger batches commit (no SQLITE_BUSY)", async () => {
    const { store } = fresh();
    await store.addUser({
      id: "u",
      primaryParty: ALICE,
      isDeactivated: false,
      metadata: { resourceVersion: "0", annotations: {} },
      identityProviderId: "",
      rights: [],
    });
    const commits: Promise<unknown>[] = [];
    const failures: string[] = [];
    let calls = 0;
    for (let round = 0; round < 100 && failures.length === 0; round++) {
      for (let i = 0; i < 20; i++) commits.push(store.commit(txCommit({ creates: [contract()] })));
      await turn(); // the batch goes to the writer thread
      const until = performance.now() + 3;
      while (performance.now() < until) {
        calls++;
        try {
          const right = { kind: "CanActAs" as const, party: ALICE };
          await store.grantRights("u", [right]);
          await store.revokeRights("u", [right]);
        } catch (e) {
          failures.push(String(e));
          break;
        }
      }
    }
    await Promise.allSettled(commits);
    await store.close();
    expect({ calls, failures }).toEqual({ calls, failures: [] });
  });
});

describe("answers taken early", () => {
  it("answers a durable batch as soon as the store is next asked to commit, before the loop's turn ends", async () => {
    const { store, file } = fresh();
    expect(await store.commit(txCommit({ creates: [contract()] }))).toEqual({ kind: "committed", offset: 1n });
    const first = store.commit(txCommit({ creates: [contract()] }));
    let answered: CommitResult | undefined;
    void first.then((r) => (answered = r));
    await turn(); // handed to the writer
    // The loop stays busy (as under load) while the writer commits, syncs and answers.
    spinUntilCommitted(file, 2n);
    const until = performance.now() + 100;
    while (performance.now() < until);
    const second = store.commit(txCommit({ creates: [contract()] }));
    // Microtasks only: the answer that is waiting on the port must be taken without a new turn.
    for (let i = 0; i < 50 && !answered; i++) await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(answered).toEqual({ kind: "committed", offset: 2n });
    expect(await second).toEqual({ kind: "committed", offset: 3n });
    await store.close();
  });
});

describe("after the writer thread's WAL sync failed", () => {
  it("writes no batch that reaches it afterwards (an answered failure must not be a commit)", async () => {
    const { store, file } = fresh();
    // White-box: wait for the writer thread's connection (opened before the WAL goes).
    const worker = (store as unknown as { writer: { worker: Worker } }).writer.worker;
    await new Promise((resolve) => worker.once("message", resolve));
    // The WAL is opened for syncing at the writer's first commit: gone by then, that sync fails.
    rmSync(`${file}-wal`);
    const internals = store as unknown as { flush(mayHold?: boolean): void };
    const first = store.commit(txCommit({ creates: [contract()] }));
    internals.flush(); // handed to the writer now
    // The writer commits it and fails its sync; the loop has not heard yet (it is busy here).
    const until = performance.now() + 300;
    while (performance.now() < until);
    const second = store.commit(txCommit({ creates: [contract()] }));
    internals.flush(); // still handed over: the loop does not know of the failure yet
    const results = await Promise.allSettled([first, second]);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : r.value.kind))).toEqual([
      expect.stringMatching(/ENOENT/),
      expect.stringMatching(/ENOENT/),
    ]);
    // What the file holds now (through the store's own connection: the WAL's name is gone).
    const rows = (await store.transactions(0n, 1_000n, 1_000)).length;
    await store.close();
    // The first batch was committed before its sync failed (unavoidable, as before); the second
    // was answered with the failure after the writer knew of it, and must not have been written.
    expect(rows).toBeLessThanOrEqual(1);
  });
});

describe("close after the checkpoint thread died", () => {
  it("closes when the checkpoint worker is gone", async () => {
    const { store } = fresh();
    expect(await store.commit(txCommit({ creates: [contract()] }))).toEqual({ kind: "committed", offset: 1n });
    const checkpointWorker = (store as unknown as { checkpointer: { worker: Worker } }).checkpointer.worker;
    await checkpointWorker.terminate(); // as on an uncaught error in the worker
    // The store goes on (it checkpoints by itself again) ...
    expect(await store.commit(txCommit({ creates: [contract()] }))).toEqual({ kind: "committed", offset: 2n });
    // ... and must still close.
    const closed = await Promise.race([store.close().then(() => "closed"), new Promise((r) => setTimeout(() => r("hung"), 3_000))]);
    expect(closed).toBe("closed");
  });
});

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
