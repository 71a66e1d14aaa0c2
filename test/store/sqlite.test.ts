/** The store conformance suite on the embedded SQLite adapter, on a file in a temp dir (so it can be reopened). */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import type { UserRecord, UserRight } from "../../src/ledger/records.js";
import type { Store } from "../../src/ledger/store-port.js";
import { CHECKPOINTER_NICE, REWIND_FRAMES } from "../../src/store/sqlite/checkpointer.js";
import type { PartyTemplateCache } from "../../src/store/sqlite/party-template-cache.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { contract, describeStoreConformance, rejection, txCommit } from "./conformance.js";
import { describeActiveAtConformance } from "./conformance-active-at.js";
import { describePackageConformance } from "./conformance-packages.js";

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

const reopenFile = async (closed: Store) => {
  const file = files.get(closed);
  if (!file) throw new Error("reopen of a store this test did not open");
  return openFile(file);
};

describeStoreConformance("SqliteStore", openFresh, reopenFile);
describePackageConformance("SqliteStore", openFresh, reopenFile);

/** Every thread of this process by id, with its nice value (Linux's /proc/self/task/<tid>/stat, field 19). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // Fields after the command name (in parentheses, which may hold spaces) start at field 3.
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("SqliteStore group commit", () => {
  it("the event loop's own writes wait for a locked file without blocking the loop, in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const file = join(dir, "ledger.sqlite");
    const store = openFile(file);
    await store.putSetting("k", "0");
    // Another connection holds the write lock, as the writer thread does while it writes a batch.
    const other = new Database(file);
    other.prepare("BEGIN IMMEDIATE").run();
    const start = performance.now();
    const locked: UserRecord = { id: "locked", primaryParty: "", isDeactivated: false, metadata: { resourceVersion: "0", annotations: {} }, identityProviderId: "", rights: [] };
    const writes = [store.putSetting("k", "1"), store.putSetting("k", "2"), store.addUser(locked)];
    // SQLite's busy handler used to sleep here, on the loop, for up to 5 s.
    expect(performance.now() - start).toBeLessThan(100);
    let settled = false;
    void Promise.all(writes).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    other.prepare("COMMIT").run();
    other.close();
    await Promise.all(writes);
    expect(await store.setting("k")).toBe("2");
    expect((await store.user("locked"))?.id).toBe("locked");
    await store.close();
  });

  it("commits every batch while the event loop's connection writes settings between them (two writers, one file)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const store = openFile(join(dir, "ledger.sqlite"));
    // A batch's first statements read (conflict checks): begun deferred, a batch overtaken by the
    // other connection's commit failed its first write with SQLITE_BUSY ("database is locked").
    const commits: Promise<unknown>[] = [];
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 10; i++) commits.push(store.commit(txCommit({ creates: [contract()] })));
      await new Promise((resolve) => setImmediate(resolve)); // the batch goes to the writer thread
      const until = performance.now() + 3;
      for (let i = 0; performance.now() < until; i++) await store.putSetting("busy", String(i));
    }
    const results = await Promise.allSettled(commits);
    expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect(await store.ledgerEnd()).toBe(1000n);
    await store.close();
  });

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

  it("answers point reads from its hot contracts exactly: archived ones are gone, a failed write changes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const file = join(dir, "ledger.sqlite");
    const store = openFile(file);
    const [a, b, c] = [contract(), contract(), contract()];
    await store.commit(txCommit({ creates: [a, b].map((x, i) => ({ ...x, nodeId: i })) }));
    expect((await store.activeContract(a.contractId))?.contractId).toBe(a.contractId);
    expect((await store.activeContract(a.contractId))?.createdOffset).toBe(1n);
    await store.commit(txCommit({ archives: [a.contractId], creates: [c] }));
    expect(await store.activeContract(a.contractId)).toBeUndefined();
    expect((await store.activeContract(c.contractId))?.createdOffset).toBe(2n);
    // A request that archives b and then fails to write is rolled back: b stays active.
    const broken = txCommit({ archives: [b.contractId], creates: [c] });
    const [failed] = await Promise.allSettled([store.commit(broken), store.commit(rejection())]);
    expect(failed.status).toBe("rejected");
    expect((await store.activeContract(b.contractId))?.contractId).toBe(b.contractId);
    const hot = [await store.activeContract(b.contractId), await store.activeContract(c.contractId)];
    await store.close();
    const reopened = openFile(file);
    expect([await reopened.activeContract(b.contractId), await reopened.activeContract(c.contractId)]).toEqual(hot);
    await reopened.close();
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

describe("SqliteStore caches and checkpoints", () => {
  const freshFile = () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    return join(dir, "ledger.sqlite");
  };
  const user = (id: string, rights: UserRight[] = []): UserRecord => ({
    id,
    primaryParty: "",
    isDeactivated: false,
    metadata: { resourceVersion: "0", annotations: {} },
    identityProviderId: "",
    rights,
  });

  it("keeps a party's small sets exact across archives of contracts it holds no record of (a reopened file)", async () => {
    const file = freshFile();
    const first = openFile(file);
    const [a, b, c] = [contract({ signatories: ["carol::1220"] }), contract({ signatories: ["carol::1220"] }), contract({ signatories: ["carol::1220"] })];
    await first.commit(txCommit({ creates: [a, b, c].map((x, i) => ({ ...x, nodeId: i })) }));
    await first.close();
    const store = openFile(file);
    const carols = async () => (await store.activeContracts({ parties: ["carol::1220"], templateIds: [a.templateId] })).map((x) => x.contractId).sort();
    expect(await carols()).toEqual([a, b, c].map((x) => x.contractId).sort());
    // The suite's consuming nodes name alice as the stakeholder: the set changed is the contract's
    // own, read from the file (the hot cache does not hold it), not what the request says.
    expect(await store.commit(txCommit({ archives: [a.contractId] }))).toEqual({ kind: "committed", offset: 2n });
    expect(await carols()).toEqual([b, c].map((x) => x.contractId).sort());
    // Nor does a request need the node at all.
    const bare = txCommit({ archives: [b.contractId] });
    expect(await store.commit({ ...bare, transaction: { ...bare.transaction, nodes: [] } })).toEqual({ kind: "committed", offset: 3n });
    expect(await carols()).toEqual([c.contractId]);
    await store.close();
  });

  it("keeps the other kept sets when a request spends a contract already archived (it conflicts, and changes nothing)", async () => {
    const store = openFile(freshFile());
    // The cache itself: whether a set is still kept shows nowhere else (a read answers the same).
    const kept = (party: string, template: string) => (store as unknown as { byPartyTemplate: PartyTemplateCache }).byPartyTemplate.get(party, template);
    const [a, d] = [contract({ signatories: ["carol::1220"] }), contract({ signatories: ["dave::1220"], nodeId: 1 })];
    await store.commit(txCommit({ creates: [a, d] }));
    expect((await store.activeContracts({ parties: ["dave::1220"], templateIds: [d.templateId] })).map((c) => c.contractId)).toEqual([d.contractId]);
    expect(kept("dave::1220", d.templateId)).toHaveLength(1);
    expect(await store.commit(txCommit({ archives: [a.contractId] }))).toEqual({ kind: "committed", offset: 2n });
    expect((await store.commit(txCommit({ archives: [a.contractId] }))).kind).toBe("rejected");
    expect(kept("dave::1220", d.templateId)).toHaveLength(1);
    await store.close();
  });

  it("a cached user reflects grants, revocations, deletion and re-creation at once", async () => {
    const store = openFile(freshFile());
    await store.addParty({ party: "p::1220aa", isLocal: true, identityProviderId: "", localMetadata: { resourceVersion: "0", annotations: {} } });
    expect(await store.user("u")).toBeUndefined();
    await store.addUser(user("u"));
    expect((await store.user("u"))?.rights).toEqual([]);
    await store.grantRights("u", [{ kind: "CanActAs", party: "p::1220aa" }]);
    expect((await store.user("u"))?.rights).toEqual([{ kind: "CanActAs", party: "p::1220aa" }]);
    await store.revokeRights("u", [{ kind: "CanActAs", party: "p::1220aa" }]);
    expect((await store.user("u"))?.rights).toEqual([]);
    await store.deleteUser("u");
    expect(await store.user("u")).toBeUndefined();
    await store.addUser(user("u", [{ kind: "ParticipantAdmin" }]));
    expect((await store.user("u"))?.rights).toEqual([{ kind: "ParticipantAdmin" }]);
    // Shared cached records are frozen: a caller's mutation fails loudly instead of corrupting the cache.
    const cached = (await store.user("u"))!;
    expect(() => (cached.rights as UserRight[]).push({ kind: "CanReadAsAnyParty" })).toThrow(TypeError);
    expect((await store.party("p::1220aa"))?.party).toBe("p::1220aa");
    await store.close();
  });

  it("checkpoints the WAL off the event loop: the WAL stays bounded and every commit survives a reopen", async () => {
    const file = freshFile();
    const store = openFile(file);
    const payload = "x".repeat(4000);
    for (let round = 0; round < 20; round++) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => store.commit(rejection(`${round}-${i}-${payload}`))));
      await new Promise((r) => setTimeout(r, 15));
    }
    // The worker checkpoints after the last commit: every frame of the WAL is copied (give a
    // starved machine up to 10 s). How large the WAL grew before that depends on how often the
    // worker got a core between bursts (1.4 MB on an idle machine, over 6 MB under a loaded CI
    // run, where smaller groups write more frames): what is guaranteed is the rewind's bound.
    const checkpointer = (store as unknown as { checkpointer: { last: { log?: number; checkpointed?: number } } }).checkpointer;
    const caughtUp = () => (checkpointer.last.log ?? 0) > 0 && checkpointer.last.checkpointed === checkpointer.last.log;
    for (let waited = 0; !caughtUp() && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(caughtUp(), JSON.stringify(checkpointer.last)).toBe(true);
    expect(statSync(`${file}-wal`).size).toBeLessThan((REWIND_FRAMES + 1024) * (4096 + 24));
    await store.close();
    const reopened = openFile(file);
    expect(await reopened.ledgerEnd()).toBe(2000n);
    expect((await reopened.completions(1999n, 2000n, 10))[0].commandId).toContain("19-99-");
    await reopened.close();
  });

  it.skipIf(process.platform !== "linux")("checkpoints on a thread of lower priority, and leaves the other threads' priorities alone", async () => {
    const before = threadNices();
    const store = openFile(freshFile());
    await store.commit(rejection("one"));
    const added = () => [...threadNices()].filter(([tid]) => !before.has(tid));
    const lowered = () => added().filter(([, nice]) => nice === CHECKPOINTER_NICE).length;
    for (let waited = 0; lowered() === 0 && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    // One new thread (the checkpointer) runs lowered; the writer thread and the others do not.
    expect(lowered()).toBe(1);
    expect(added().filter(([, nice]) => nice === 0).length).toBeGreaterThan(0);
    for (const [tid, nice] of threadNices()) if (before.has(tid)) expect(nice).toBe(before.get(tid));
    await store.close();
  });

  it("rewinds the WAL under commits without pauses (checkpoints that always overlap a commit)", async () => {
    const file = freshFile();
    const store = openFile(file);
    const payload = "y".repeat(6000);
    // One commit after another: every worker checkpoint overlaps the next commit, so only the
    // store's own rewind (REWIND_FRAMES) keeps the WAL from growing (~3 frames per commit here).
    for (let i = 0; i < 4000; i++) await store.commit(rejection(`${i}-${payload}`));
    expect(statSync(`${file}-wal`).size).toBeLessThan(32 * 1024 * 1024);
    expect(await store.ledgerEnd()).toBe(4000n);
    await store.close();
  }, 30_000);
});

describe("SqliteStore schema migration", () => {
  it("moves a version-3 data dir's active stakeholder rows to active_stakeholders and drops the history table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const file = join(dir, "ledger.sqlite");
    const first = openFile(file);
    const [kept, gone] = [contract({ signatories: ["alice::1220"], observers: ["bob::1220"] }), contract({ signatories: ["alice::1220"], nodeId: 1 })];
    await first.commit(txCommit({ creates: [kept, gone] }));
    await first.commit(txCommit({ archives: [gone.contractId] }));
    await first.close();
    // Rewind the file to version 3's layout: a stakeholder row for every contract ever created.
    const db = new Database(file);
    db.exec(`DROP TABLE active_stakeholders;
      CREATE TABLE contract_stakeholders (party TEXT NOT NULL, contract_id TEXT NOT NULL, PRIMARY KEY (party, contract_id)) WITHOUT ROWID;
      INSERT INTO contract_stakeholders VALUES ('alice::1220', '${kept.contractId}'), ('bob::1220', '${kept.contractId}'), ('alice::1220', '${gone.contractId}');
      DROP INDEX completions_user; ALTER TABLE completions DROP COLUMN user_id;`);
    db.close();

    const store = openFile(file);
    expect((await store.activeContracts({ parties: ["alice::1220"] })).map((c) => c.contractId)).toEqual([kept.contractId]);
    expect((await store.activeContracts({ parties: ["bob::1220"], templateIds: [kept.templateId] })).map((c) => c.contractId)).toEqual([kept.contractId]);
    // Both migrations ran in the one open: version 5's user column too.
    const [c1] = await store.completions(0n, 1n, 1);
    expect((await store.completions(0n, 2n, 10, c1.userId)).map((c) => c.offset)).toEqual([1n, 2n]);
    await store.close();
    const after = new Database(file, { readonly: true });
    const tables = (after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    const rows = after.prepare("SELECT party, contract_id AS cid FROM active_stakeholders ORDER BY party").all();
    after.close();
    expect(tables).not.toContain("contract_stakeholders");
    expect(rows).toEqual([{ party: "alice::1220", cid: kept.contractId }, { party: "bob::1220", cid: kept.contractId }]);
  });

  it("gives a version-4 data dir's completions their user, so a user's completions are read through the index", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const file = join(dir, "ledger.sqlite");
    const first = openFile(file);
    await first.commit(txCommit({ creates: [contract()] }));
    await first.commit(rejection());
    const before = await first.completions(0n, 2n, 10);
    await first.close();
    // Rewind the file to version 4's layout: completions without the user column.
    const db = new Database(file);
    db.exec("DROP INDEX completions_user; ALTER TABLE completions DROP COLUMN user_id;");
    db.close();

    const store = openFile(file);
    const user = before[0].userId;
    expect(await store.completions(0n, 2n, 10, user)).toEqual(before);
    expect(await store.completions(0n, 2n, 10, `${user}-other`)).toEqual([]);
    await store.commit(rejection());
    expect((await store.completions(0n, 3n, 10, user)).map((c) => c.offset)).toEqual([1n, 2n, 3n]);
    await store.close();
    const after = new Database(file, { readonly: true });
    const plan = after.prepare("EXPLAIN QUERY PLAN SELECT record FROM completions WHERE user_id = ? AND offset > ? AND offset <= ? ORDER BY offset LIMIT ?").all("u", 0, 1, 1) as { detail: string }[];
    after.close();
    expect(plan.map((p) => p.detail).join(" ")).toContain("completions_user");
  });
});

describe("SqliteStore durability", () => {
  it("keeps a written batch from readers of the ledger end until its fsync has finished", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const store = openFile(join(dir, "ledger.sqlite"));
    const ends: bigint[] = [];
    store.onLedgerEnd((end) => ends.push(end));
    const committed = store.commit(txCommit({ creates: [contract()] }));
    // The batch is written in the next check phase; its sync finishes on the thread pool later.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.ledgerEnd()).toBe(0n);
    expect(ends).toEqual([]);
    expect(await committed).toEqual({ kind: "committed", offset: 1n });
    expect(await store.ledgerEnd()).toBe(1n);
    expect(ends).toEqual([1n]);
    await store.close();
  });

  it("when its writer thread is lost, fails what it was writing, refuses every later commit and answers the readiness probe with the error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    const file = join(dir, "ledger.sqlite");
    const store = openFile(file);
    expect(await store.commit(txCommit({ creates: [contract()] }))).toEqual({ kind: "committed", offset: 1n });
    await store.close();
    const again = openFile(file);
    await again.probe();
    // White-box: the thread dies (as on an out-of-memory kill) while a batch is with it.
    const thread = (again as unknown as { writer: { worker: Worker } }).writer.worker;
    const first = again.commit(txCommit({ creates: [contract()] }));
    await new Promise((resolve) => setImmediate(resolve));
    await thread.terminate();
    await expect(first).rejects.toThrow(/writer thread exited/);
    const queued = [again.commit(txCommit({ creates: [contract()] })), again.commit(rejection())];
    for (const r of await Promise.allSettled(queued)) expect(r.status).toBe("rejected");
    await expect(again.probe()).rejects.toThrow(/writer thread exited/);
    expect(await again.ledgerEnd()).toBe(1n);
    await again.close();
  });
});
