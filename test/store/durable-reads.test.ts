/**
 * Reads of the current state show the ledger at the durable end: the cases a hostile review of
 * the first bounded version found (session 28), each failing before its fix. The plain cases (a
 * batch's creates left out, its archives kept) are in sqlite-writer.test.ts, the random search in
 * durable-reads-stress.test.ts.
 */
import { rmSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { ALICE, contract, txCommit } from "./conformance.js";
import { freshFile, internals, Spy, turn } from "./file-spy.js";

const HOLDING = "pkg1:Demo.Holding:Holding";
const ids = (rows: readonly { contractId: string }[]) => rows.map((c) => c.contractId);

/** Holds the file's write lock from another connection, so the writer takes what it is given next alone and waits. */
function lockFile(file: string): () => void {
  const locker = new Database(file);
  locker.exec("BEGIN IMMEDIATE");
  return () => {
    locker.exec("ROLLBACK");
    locker.close();
  };
}

/** A store on a fresh file whose first transaction created one holding, `x`. */
async function storeWithHolding() {
  const file = freshFile();
  const store = new SqliteStore({ file });
  const x = contract({ template: HOLDING });
  expect(await store.commit(txCommit({ creates: [x] }))).toEqual({ kind: "committed", offset: 1n });
  return { file, store, x };
}

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe("reads of the current state at the durable end", () => {
  it("keep a contract archived by a batch handed over before the writer had committed its creation", async () => {
    const { file, store, x } = await storeWithHolding();
    const spy = new Spy(file);
    const unlock = lockFile(file);
    const y = contract({ template: HOLDING });
    const creating = store.commit(txCommit({ creates: [y] }));
    internals(store).flush(); // handed over; the writer takes it and waits for the lock
    spin(200);
    const archiving = store.commit(txCommit({ archives: [y.contractId] }));
    internals(store).flush(); // handed over while neither the hot cache nor the file knows y
    unlock();
    expect(await creating).toEqual({ kind: "committed", offset: 2n });
    // y's creation is answered; its archive is committed by the writer and not yet answered.
    expect(spy.spinUntil(3n, 5_000)).toBe(true);
    expect(await store.ledgerEnd()).toBe(2n);
    const both = [x.contractId, y.contractId];
    expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING] }))).toEqual(both);
    expect(ids(await store.activeContracts({ templateIds: [HOLDING] }))).toEqual(both);
    expect(ids(await store.activeContracts({ parties: [ALICE] }))).toEqual(both);
    expect(ids(await store.activeContracts({}))).toEqual(both);
    expect(ids(await store.activeContracts({ parties: ["someone-else"] }))).toEqual([]);
    expect((await store.activeContract(y.contractId))?.contractId).toBe(y.contractId);
    expect(await archiving).toEqual({ kind: "committed", offset: 3n });
    expect(ids(await store.activeContracts({ templateIds: [HOLDING] }))).toEqual([x.contractId]);
    spy.close();
    await store.close();
  });

  it("stay there after a commit whose outcome is unknown (its sync failed once the writer had committed it)", async () => {
    const file = freshFile();
    const first = new SqliteStore({ file });
    const x = contract({ template: HOLDING });
    expect(await first.commit(txCommit({ creates: [x] }))).toEqual({ kind: "committed", offset: 1n });
    await first.close();
    const store = new SqliteStore({ file });
    const worker = internals(store).writer.worker!;
    await new Promise((resolve) => worker.once("message", resolve)); // the writer's connection is open
    rmSync(`${file}-wal`); // its first sync fails, after the commit
    const y = contract({ template: HOLDING });
    await expect(store.commit(txCommit({ archives: [x.contractId], creates: [y] }))).rejects.toThrow(/ENOENT/);
    expect(await store.ledgerEnd()).toBe(1n);
    expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [HOLDING] }))).toEqual([x.contractId]);
    expect(ids(await store.activeContracts({}))).toEqual([x.contractId]);
    expect((await store.activeContract(x.contractId))?.contractId).toBe(x.contractId);
    expect(await store.activeContract(y.contractId)).toBeUndefined();
    expect(await store.contractHistory(y.contractId)).toBeUndefined();
    expect((await store.contractHistory(x.contractId))?.archivedOffset).toBeUndefined();
    await store.close();
  });

  it("return a contract once when the read names its template twice", async () => {
    const { file, store, x } = await storeWithHolding();
    const spy = new Spy(file);
    const archiving = store.commit(txCommit({ archives: [x.contractId] }));
    await turn();
    expect(spy.spinUntil(2n, 5_000)).toBe(true);
    expect(ids(await store.activeContracts({ templateIds: [HOLDING, HOLDING] }))).toEqual([x.contractId]);
    expect(ids(await store.activeContracts({ parties: [ALICE, ALICE], templateIds: [HOLDING, HOLDING] }))).toEqual([x.contractId]);
    await archiving;
    spy.close();
    await store.close();
  });

  it("agree in a ledger-end listener between two batches written together", async () => {
    const { file, store, x } = await storeWithHolding(); // x is in the hot cache
    const spy = new Spy(file);
    const seen: { end: bigint; byId: boolean; inAcs: boolean; expected: boolean }[] = [];
    store.onLedgerEnd((end) => {
      const expected = ids(spy.acsAt(end, { templateIds: [HOLDING] })).includes(x.contractId);
      void Promise.all([store.activeContract(x.contractId), store.activeContracts({ templateIds: [HOLDING] })]).then(([c, acs]) =>
        seen.push({ end, byId: c !== undefined, inAcs: ids(acs).includes(x.contractId), expected }),
      );
    });
    const unlock = lockFile(file);
    const first = store.commit(txCommit({ creates: [contract({ template: "pkg1:Other:P" })] }));
    internals(store).flush(); // the writer takes it and waits for the lock
    spin(200);
    const second = store.commit(txCommit({ creates: [contract({ template: "pkg1:Other:A" })] }));
    internals(store).flush();
    const third = store.commit(txCommit({ archives: [x.contractId] }));
    internals(store).flush(); // waits behind the second: the two are written together
    unlock();
    expect(await Promise.all([first, second, third])).toEqual([
      { kind: "committed", offset: 2n },
      { kind: "committed", offset: 3n },
      { kind: "committed", offset: 4n },
    ]);
    await turn();
    spy.close();
    await store.close();
    expect(seen.map((s) => s.end)).toEqual([2n, 3n, 4n]);
    for (const s of seen) expect({ end: s.end, byId: s.byId, inAcs: s.inAcs }).toEqual({ end: s.end, byId: s.expected, inAcs: s.expected });
  });
});

describe("the other reads of a batch committed by the writer and not yet answered", () => {
  it("its keyed contract, its accepted command and its transaction are not there yet", async () => {
    const file = freshFile();
    const store = new SqliteStore({ file });
    const spy = new Spy(file);
    const keyed = contract({ keyHash: "k-1" });
    const dedup = { changeKey: "change-1", since: 0n };
    const commit = txCommit({ creates: [keyed], dedup });
    const creating = store.commit(commit);
    await turn();
    expect(spy.spinUntil(1n, 5_000)).toBe(true);
    expect(await store.ledgerEnd()).toBe(0n);
    expect(await store.activeContractByKey("k-1")).toBeUndefined();
    expect(await store.acceptedCommand("change-1")).toBeUndefined();
    expect(await store.transactionById(commit.updateId)).toBeUndefined();
    expect(await store.transactionByOffset(1n)).toBeUndefined();
    expect(await creating).toEqual({ kind: "committed", offset: 1n });
    expect((await store.activeContractByKey("k-1"))?.contractId).toBe(keyed.contractId);
    expect(await store.acceptedCommand("change-1")).toEqual({ offset: 1n, recordTime: 1_000n });
    expect((await store.transactionById(commit.updateId))?.offset).toBe(1n);
    expect((await store.transactionByOffset(1n))?.updateId).toBe(commit.updateId);
    spy.close();
    await store.close();
  });
});
