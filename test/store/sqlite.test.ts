/** The store conformance suite on the embedded SQLite adapter, on a file in a temp dir (so it can be reopened). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { Store } from "../../src/store/port.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { contract, describeStoreConformance, rejection, txCommit } from "./conformance.js";
import { describeActiveAtConformance } from "./conformance-active-at.js";

const dirs: string[] = [];
const files = new WeakMap<Store, string>();

function openFile(file: string): Store {
  const store = new SqliteStore({ file });
  files.set(store, file);
  return store;
}

async function openFresh(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
  dirs.push(dir);
  return openFile(join(dir, "ledger.sqlite"));
}

describeActiveAtConformance("SqliteStore", openFresh);

describeStoreConformance(
  "SqliteStore",
  openFresh,
  async (closed) => {
    const file = files.get(closed);
    if (!file) throw new Error("reopen of a store this test did not open");
    return openFile(file);
  },
);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("SqliteStore group commit", () => {
  it("rejects a request whose write fails without failing the rest of its batch", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const store = openFile(join(dir, "ledger.sqlite"));
    const c = contract();
    // The same contract id twice in one request violates the primary key: that request alone fails.
    const broken = txCommit({ creates: [c, { ...c, nodeId: 1 }] });
    const results = await Promise.allSettled([store.commit(rejection()), store.commit(broken), store.commit(txCommit({ creates: [contract()] }))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(results[0].status === "fulfilled" && results[0].value.offset).toBe(1n);
    expect(results[2].status === "fulfilled" && results[2].value).toEqual({ kind: "committed", offset: 2n });
    expect(await store.ledgerEnd()).toBe(2n);
    expect((await store.completions(0n, 10n, 10)).map((r) => r.offset)).toEqual([1n, 2n]);
    expect(await store.activeContract(c.contractId)).toBeUndefined();
    await store.close();
  });
});

describe("SqliteStore schema migration", () => {
  it("opens a version-1 data dir (no contracts_archived index) in place and answers the ACS at an offset", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const file = join(dir, "ledger.sqlite");
    const first = openFile(file);
    const a = contract();
    const b = contract();
    await first.commit(txCommit({ creates: [a, b].map((c, i) => ({ ...c, nodeId: i })) }));
    await first.commit(txCommit({ archives: [a.contractId] }));
    await first.close();
    // Version 1 had everything but this index.
    const raw = new Database(file);
    raw.exec("DROP INDEX contracts_archived");
    raw.close();

    const second = openFile(file);
    expect((await second.activeContracts({ activeAtOffset: 1n })).map((c) => c.contractId)).toEqual([a.contractId, b.contractId]);
    expect((await second.activeContracts({ activeAtOffset: 2n })).map((c) => c.contractId)).toEqual([b.contractId]);
    await second.close();
    const check = new Database(file, { readonly: true });
    const index = check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'contracts_archived'").get();
    check.close();
    expect(index).toEqual({ name: "contracts_archived" });
  });
});
