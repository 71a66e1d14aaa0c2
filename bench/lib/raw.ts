/**
 * Raw baselines, measured in the same run and on the same filesystem as the server's data dir:
 * fsync rate, bare better-sqlite3 commits (WAL, synchronous=FULL) of rows like the store's, and
 * a bare read of completion rows.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { SCHEMA } from "../../src/store/sqlite/schema.js";

export interface RateResult {
  readonly perSec: number;
  readonly ops: number;
  readonly seconds: number;
  /** Per operation (one fsync / one transaction), ms. */
  readonly p50: number;
  readonly p99: number;
}

function timed(seconds: number, op: (i: number) => void): RateResult {
  const lat: number[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let i = 0;
  for (let now = t0; now < end; ) {
    op(i++);
    const t = performance.now();
    lat.push(t - now);
    now = t;
  }
  const wall = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { perSec: i / wall, ops: i, seconds: wall, p50: lat[Math.floor(lat.length * 0.5)], p99: lat[Math.min(lat.length - 1, Math.floor(lat.length * 0.99))] };
}

export function fsyncRate(dir: string, seconds: number): RateResult {
  const file = join(dir, "fsync.bin");
  const fd = openSync(file, "w");
  const buf = Buffer.alloc(512, 1);
  try {
    return timed(seconds, (i) => {
      writeSync(fd, buf, 0, buf.length, (i % 8) * 512);
      fsyncSync(fd);
    });
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * Rows shaped like one committed one-create command: contract, stakeholder, transaction,
 * completion, dedup. With `hashedIds` the contract and update ids are SHA-256 hex like the
 * ledger's (random B-tree keys); otherwise they ascend with `i` (append-only B-trees).
 */
export function sampleRows(i: number, party: string, hashedIds = false) {
  const cid = hashedIds ? `00${sha(`c${i}`)}ca11` : `00${i.toString(16).padStart(64, "0")}`;
  const updateId = hashedIds ? `1220${sha(`u${i}`)}` : `1220${i.toString(16).padStart(60, "0")}`;
  const payload = { issuer: party, owner: party, currency: "CC", amount: "10.0000000000", observers: [] };
  const contract = JSON.stringify({ contractId: cid, templateId: "x".repeat(64) + ":Ccwallet.Demo.Iou:Iou", packageName: "ccwallet-demo", payload, signatories: [party], observers: [party], createdAt: { $n: "1763000000000000" }, createdOffset: { $n: String(i) }, createUpdateId: updateId, nodeId: 0 });
  const tx = JSON.stringify({ updateId, offset: { $n: String(i) }, commandId: `cmd-${i}`, workflowId: "", submitters: [party], effectiveAt: { $n: "1763000000000000" }, recordTime: { $n: "1763000000000000" }, nodes: [{ kind: "create", nodeId: 0, contractId: cid, templateId: "x".repeat(64) + ":Ccwallet.Demo.Iou:Iou", packageName: "ccwallet-demo", payload, signatories: [party], observers: [party], witnesses: [party] }] });
  const completion = JSON.stringify({ commandId: `cmd-${i}`, userId: "bench-user", actAs: [party], submissionId: "f".repeat(32), deduplication: { kind: "none" }, recordTime: { $n: "1763000000000000" }, updateId, status: { code: 0, message: "", errorCode: "", category: 0, context: {}, resources: [], correlationId: "f".repeat(32) }, offset: { $n: String(i) } });
  return { cid, updateId, contract, tx, completion, changeKey: JSON.stringify(["bench-user", [party], `cmd-${i}`]) };
}

export interface SqliteBaselines {
  /** One ~0.5-1 KB JSON row per transaction (one fsync each). */
  readonly onePerTx: RateResult;
  /** 64 such rows per transaction; perSec counts rows. */
  readonly grouped64: RateResult;
  /** The store's full write set of a one-create command (5 rows), 64 commands per transaction; perSec counts commands. */
  readonly writeSet64: RateResult;
  /** Same with SHA-256 contract/update ids, as the ledger makes them (random index inserts). */
  readonly writeSet64Hashed: RateResult;
}

export function sqliteBaselines(dir: string, seconds: number): SqliteBaselines {
  const d = mkdtempSync(join(dir, "sqlite-raw-"));
  const db = new Database(join(d, "raw.sqlite"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.exec("CREATE TABLE rows (offset INTEGER PRIMARY KEY, record TEXT NOT NULL)");
    db.exec(SCHEMA);
    const party = "bench-party::1220" + "c".repeat(64);
    const ins = db.prepare("INSERT INTO rows (offset, record) VALUES (?, ?)");
    let off = 0;
    const onePerTx = timed(seconds, () => {
      off++;
      ins.run(off, sampleRows(off, party).tx);
    });
    const group = db.transaction((n: number) => {
      for (let k = 0; k < n; k++) {
        off++;
        ins.run(off, sampleRows(off, party).tx);
      }
    });
    const g = timed(seconds, () => group(64));
    const grouped64 = { ...g, perSec: g.perSec * 64 };

    const s = {
      contract: db.prepare("INSERT INTO contracts (contract_id, template_id, key_hash, created_offset, node_id, record) VALUES (?, ?, ?, ?, ?, ?)"),
      stakeholder: db.prepare("INSERT INTO active_stakeholders (party, template_id, created_offset, node_id, contract_id) VALUES (?, ?, ?, ?, ?)"),
      tx: db.prepare("INSERT INTO transactions (offset, update_id, record) VALUES (?, ?, ?)"),
      completion: db.prepare("INSERT INTO completions (offset, record) VALUES (?, ?)"),
      dedup: db.prepare(
        "INSERT INTO dedup (change_key, offset, record_time) VALUES (?, ?, ?) ON CONFLICT(change_key) DO UPDATE SET offset = excluded.offset, record_time = excluded.record_time",
      ),
    };
    let o = 0;
    let hashed = false;
    const writeSet = db.transaction((n: number) => {
      for (let k = 0; k < n; k++) {
        o++;
        const r = sampleRows(o, party, hashed);
        s.contract.run(r.cid, "tpl", null, o, 0, r.contract);
        s.stakeholder.run(party, "tpl", o, 0, r.cid);
        s.tx.run(o, r.updateId, r.tx);
        s.completion.run(o, r.completion);
        s.dedup.run(r.changeKey, o, 1763000000000000);
      }
    });
    const w = timed(seconds, () => writeSet(64));
    hashed = true;
    const wh = timed(seconds, () => writeSet(64));
    return { onePerTx, grouped64, writeSet64: { ...w, perSec: w.perSec * 64 }, writeSet64Hashed: { ...wh, perSec: wh.perSec * 64 } };
  } finally {
    db.close();
    rmSync(d, { recursive: true, force: true });
  }
}

/**
 * The bare durable commit of a CC transfer's shape, the issue-#10 baseline: per SQLite transaction
 * (WAL, synchronous=FULL, one fsync each) one archived holding row deleted and two rows inserted
 * (the receiver's holding and the sender's change).
 */
export function sqliteTransferCommits(dir: string, seconds: number): RateResult {
  const d = mkdtempSync(join(dir, "sqlite-transfer-"));
  const db = new Database(join(d, "raw.sqlite"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.exec("CREATE TABLE holdings (contract_id TEXT PRIMARY KEY, record TEXT NOT NULL)");
    const party = "bench-party::1220" + "c".repeat(64);
    const ins = db.prepare("INSERT INTO holdings (contract_id, record) VALUES (?, ?)");
    const del = db.prepare("DELETE FROM holdings WHERE contract_id = ?");
    let i = 0;
    ins.run(sampleRows(0, party, true).cid, sampleRows(0, party, true).contract);
    const transfer = db.transaction(() => {
      del.run(sampleRows(i, party, true).cid);
      const a = sampleRows(++i, party, true);
      const b = sampleRows(1_000_000_000 + i, party, true);
      ins.run(a.cid, a.contract);
      ins.run(b.cid, b.contract);
    });
    return timed(seconds, () => transfer());
  } finally {
    db.close();
    rmSync(d, { recursive: true, force: true });
  }
}

/** Bare read of all completion rows of a store file: SELECT + JSON.parse, no filtering, no encoding. */
export function sqliteReadCompletions(file: string): { seconds: number; rows: number } {
  const db = new Database(file, { readonly: true });
  try {
    const t0 = performance.now();
    let rows = 0;
    for (const r of db.prepare("SELECT record FROM completions ORDER BY offset").iterate() as Iterable<{ record: string }>) {
      JSON.parse(r.record);
      rows++;
    }
    return { seconds: (performance.now() - t0) / 1000, rows };
  } finally {
    db.close();
  }
}
