/**
 * The SQLite writer thread beside the event loop's connection: each test failed before its fix
 * (a review of the writer thread): reads while a batch is committed but not yet answered, rights
 * written beside ledger batches, batches after a failed sync, close after a dead helper thread.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
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
