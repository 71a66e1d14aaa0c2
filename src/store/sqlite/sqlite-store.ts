/**
 * Embedded store on SQLite (better-sqlite3): WAL journal, `synchronous=FULL`, so a commit is on
 * disk before it is acknowledged. Concurrent commits are grouped: requests queued during one
 * turn of the event loop share one SQLite transaction and so one fsync (group commit).
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type {
  CompletionRecord,
  ContractRecord,
  PartyRecord,
  TransactionRecord,
  UserRecord,
  UserRight,
} from "../../ledger/records.js";
import { isDuplicate } from "../deduplication.js";
import { grant, revoke } from "../rights-change.js";
import { decodeRecord, encodeRecord } from "../codec.js";
import type { CommitRequest, CommitResult, Conflict, ContractQuery, Store, TransactionCommit } from "../port.js";
import { SAFETY_NET_PAGES, WalCheckpointer } from "./checkpointer.js";
import { AcsStats } from "./acs-stats.js";
import { ContractCache } from "./contract-cache.js";
import { SCHEMA } from "./schema.js";

/** SQLite's own default, restored if the checkpoint worker dies. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

type Statement = Database.Statement<unknown[], unknown>;

type Outcome = { readonly ok: true; readonly result: CommitResult } | { readonly ok: false; readonly error: unknown };

interface Pending {
  readonly request: CommitRequest;
  readonly resolve: (r: CommitResult) => void;
  readonly reject: (e: unknown) => void;
}

export interface SqliteStoreOptions {
  /** Path of the database file; `:memory:` for tests that need no durability. */
  readonly file: string;
}

export class SqliteStore implements Store {
  readonly description: string;
  private readonly db: Database.Database;
  private readonly stmts: Record<string, Statement>;
  private end: bigint;
  private queue: Pending[] = [];
  private flushScheduled = false;
  private readonly listeners = new Set<(end: bigint) => void>();
  /** `apply` in its own savepoint (a nested better-sqlite3 transaction); built once, used per request. */
  private readonly applyInSavepoint: (request: CommitRequest) => CommitResult;
  /** A batch in one SQLite transaction; with `isolate`, each request in its own savepoint. */
  private readonly writeBatch: (batch: readonly Pending[], isolate: boolean) => Outcome[];
  /**
   * Users and parties by id, decoded and frozen. Every call authenticates its user, and every
   * submission looks up its parties; this process is the only writer of its SQLite file, so the
   * cache is updated with each write and is never stale.
   */
  private readonly knownUsers = new Map<string, UserRecord>();
  private readonly knownParties = new Map<string, PartyRecord>();
  private closed = false;
  private readonly stats: AcsStats;
  private readonly hot = new ContractCache(HOT_CONTRACTS);
  private readonly checkpointer: WalCheckpointer | undefined;
  private readonly rewindCheckpoint = () => this.db.pragma("wal_checkpoint(PASSIVE)");

  constructor(options: SqliteStoreOptions) {
    if (options.file !== ":memory:") mkdirSync(dirname(options.file), { recursive: true });
    this.description = `sqlite:${options.file}`;
    this.db = new Database(options.file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("busy_timeout = 5000");
    if (options.file !== ":memory:") {
      // Checkpoints run in a worker thread (see checkpointer.ts), not inside commits.
      this.db.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
      this.checkpointer = new WalCheckpointer(options.file, () => {
        if (!this.closed) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      });
    }
    this.db.defaultSafeIntegers(true);
    this.db.exec(SCHEMA);
    this.stats = new AcsStats(this.db);
    const p = (sql: string) => this.db.prepare(sql);
    this.stmts = {
      contract: p("SELECT record FROM contracts WHERE contract_id = ? AND archived_offset IS NULL"),
      contractByKey: p("SELECT record FROM contracts WHERE key_hash = ? AND archived_offset IS NULL"),
      activeAll: p("SELECT record FROM contracts WHERE archived_offset IS NULL ORDER BY created_offset, node_id"),
      activeByParty: p(
        `SELECT c.record FROM contract_stakeholders s JOIN contracts c ON c.contract_id = s.contract_id
         WHERE s.party = ? AND c.archived_offset IS NULL ORDER BY c.created_offset, c.node_id`,
      ),
      // Party first (CROSS JOIN keeps that order); the template is filtered before any record is decoded.
      activeByPartyAndTemplate: p(
        `SELECT c.record FROM contract_stakeholders s CROSS JOIN contracts c ON c.contract_id = s.contract_id
         WHERE s.party = ? AND c.template_id = ? AND c.archived_offset IS NULL ORDER BY c.created_offset, c.node_id`,
      ),
      // Template first, for a party that is a stakeholder of far more contracts (see acs-stats.ts).
      activeByTemplateAndParty: p(
        `SELECT c.record FROM contracts c WHERE c.template_id = ? AND c.archived_offset IS NULL
         AND EXISTS (SELECT 1 FROM contract_stakeholders s WHERE s.party = ? AND s.contract_id = c.contract_id)
         ORDER BY c.created_offset, c.node_id`,
      ),
      activeByTemplate: p(
        "SELECT record FROM contracts WHERE template_id = ? AND archived_offset IS NULL ORDER BY created_offset, node_id",
      ),
      // The ACS at offset @at: created at or before it, and active now or archived after it.
      activeAllAt: p(
        `SELECT record FROM (
           SELECT record, created_offset, node_id FROM contracts WHERE archived_offset IS NULL AND created_offset <= @at
           UNION ALL
           SELECT record, created_offset, node_id FROM contracts WHERE archived_offset > @at AND created_offset <= @at
         ) ORDER BY created_offset, node_id`,
      ),
      activeByPartyAt: p(
        `SELECT c.record FROM contract_stakeholders s JOIN contracts c ON c.contract_id = s.contract_id
         WHERE s.party = @party AND c.created_offset <= @at AND (c.archived_offset IS NULL OR c.archived_offset > @at)
         ORDER BY c.created_offset, c.node_id`,
      ),
      activeByTemplateAt: p(
        `SELECT record FROM (
           SELECT record, created_offset, node_id FROM contracts
           WHERE template_id = @template AND archived_offset IS NULL AND created_offset <= @at
           UNION ALL
           SELECT record, created_offset, node_id FROM contracts
           WHERE template_id = @template AND archived_offset > @at AND created_offset <= @at
         ) ORDER BY created_offset, node_id`,
      ),
      insertContract: p(
        "INSERT INTO contracts (contract_id, template_id, key_hash, created_offset, node_id, record) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      insertStakeholder: p("INSERT OR IGNORE INTO contract_stakeholders (party, contract_id) VALUES (?, ?)"),
      archive: p("UPDATE contracts SET archived_offset = ? WHERE contract_id = ? AND archived_offset IS NULL RETURNING template_id"),
      isActive: p("SELECT 1 FROM contracts WHERE contract_id = ? AND archived_offset IS NULL"),
      keyInUse: p("SELECT 1 FROM contracts WHERE key_hash = ? AND archived_offset IS NULL"),
      insertTx: p("INSERT INTO transactions (offset, update_id, record) VALUES (?, ?, ?)"),
      txRange: p("SELECT record FROM transactions WHERE offset > ? AND offset <= ? ORDER BY offset LIMIT ?"),
      txById: p("SELECT record FROM transactions WHERE update_id = ?"),
      txByOffset: p("SELECT record FROM transactions WHERE offset = ?"),
      insertCompletion: p("INSERT INTO completions (offset, record) VALUES (?, ?)"),
      completionRange: p("SELECT record FROM completions WHERE offset > ? AND offset <= ? ORDER BY offset LIMIT ?"),
      dedup: p("SELECT offset, record_time FROM dedup WHERE change_key = ?"),
      upsertDedup: p(
        `INSERT INTO dedup (change_key, offset, record_time) VALUES (?, ?, ?)
         ON CONFLICT(change_key) DO UPDATE SET offset = excluded.offset, record_time = excluded.record_time`,
      ),
      maxOffset: p(
        "SELECT MAX(m) AS m FROM (SELECT MAX(offset) AS m FROM transactions UNION ALL SELECT MAX(offset) FROM completions)",
      ),
      setting: p("SELECT value FROM settings WHERE name = ?"),
      initSetting: p("INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)"),
      putSetting: p("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value"),
      addParty: p("INSERT OR IGNORE INTO parties (party, record) VALUES (?, ?)"),
      party: p("SELECT record FROM parties WHERE party = ?"),
      parties: p("SELECT record FROM parties WHERE party > ? ORDER BY party LIMIT ?"),
      addUser: p("INSERT OR IGNORE INTO users (id, record) VALUES (?, ?)"),
      user: p("SELECT record FROM users WHERE id = ?"),
      users: p("SELECT record FROM users WHERE id > ? ORDER BY id LIMIT ?"),
      putUser: p("UPDATE users SET record = ? WHERE id = ?"),
      deleteUser: p("DELETE FROM users WHERE id = ?"),
    };
    this.applyInSavepoint = this.db.transaction((request: CommitRequest) => this.apply(request));
    this.writeBatch = this.db.transaction((batch: readonly Pending[], isolate: boolean) =>
      batch.map((p) => (isolate ? this.applyIsolated(p.request) : { ok: true as const, result: this.apply(p.request) })),
    );
    const row = this.stmts.maxOffset.get() as { m: bigint | null };
    this.end = row.m ?? 0n;
  }

  async ledgerEnd(): Promise<bigint> {
    return this.end;
  }

  commit(request: CommitRequest): Promise<CommitResult> {
    if (this.closed) return Promise.reject(new Error("store is closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  async acceptedCommand(changeKey: string): Promise<{ offset: bigint; recordTime: bigint } | undefined> {
    const row = this.stmts.dedup.get(changeKey) as { offset: bigint; record_time: bigint } | undefined;
    return row && { offset: row.offset, recordTime: row.record_time };
  }

  /** Writes every queued request in one SQLite transaction (one fsync), then acknowledges them. */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const startEnd = this.end;
    this.checkpointer?.beforeWrite(this.rewindCheckpoint);
    let outcomes: Outcome[];
    try {
      outcomes = this.writeBatch(batch, false);
    } catch {
      // A request's write threw (rare): the whole transaction rolled back. Redo the batch with a
      // savepoint per request, so the one that throws is rolled back and rejected alone and the
      // others still commit with the shared fsync. Savepoints cost two statements per request,
      // so they are only paid on this path.
      this.end = startEnd;
      try {
        outcomes = this.writeBatch(batch, true);
      } catch (e) {
        this.end = startEnd;
        for (const p of batch) p.reject(e);
        return;
      }
    }
    outcomes.forEach((o, i) => {
      if (o.ok) this.cacheEffects(batch[i].request, o.result);
    });
    outcomes.forEach((o, i) => (o.ok ? batch[i].resolve(o.result) : batch[i].reject(o.error)));
    this.checkpointer?.committed();
    for (const listener of this.listeners) {
      try {
        listener(this.end);
      } catch {
        // A failing listener must not keep the others from hearing about the new end.
      }
    }
  }

  /** What a committed write did to the active contracts, applied to the cache once it is durable. */
  private cacheEffects(request: CommitRequest, result: CommitResult): void {
    if (request.kind !== "transaction" || result.kind !== "committed") return;
    for (const cid of request.archives) this.hot.archived(cid);
    for (const c of request.creates) this.hot.put({ ...c, createdOffset: result.offset });
  }

  private applyIsolated(request: CommitRequest): Outcome {
    const before = this.end;
    try {
      return { ok: true, result: this.applyInSavepoint(request) };
    } catch (error) {
      this.end = before;
      return { ok: false, error };
    }
  }

  private apply(request: CommitRequest): CommitResult {
    const offset = this.end + 1n;
    if (request.kind === "rejection") {
      this.writeCompletion({ ...request.completion, offset });
      this.end = offset;
      return { kind: "rejected", offset };
    }
    const conflict = this.findConflict(request);
    if (conflict) {
      this.writeCompletion({ ...request.onConflict(conflict), offset });
      this.end = offset;
      return { kind: "rejected", offset, conflict };
    }
    const s = this.stmts;
    for (const cid of request.archives) {
      const row = s.archive.get(offset, cid) as { template_id: string } | undefined;
      if (row) this.stats.archived(row.template_id);
    }
    for (const c of request.creates) {
      const rec: ContractRecord = { ...c, createdOffset: offset };
      s.insertContract.run(c.contractId, c.templateId, c.keyHash ?? null, offset, c.nodeId, encodeRecord(rec));
      const stakeholders = new Set([...c.signatories, ...c.observers]);
      for (const party of stakeholders) s.insertStakeholder.run(party, c.contractId);
      this.stats.created(c.templateId, stakeholders);
    }
    const tx: TransactionRecord = { ...request.transaction, offset };
    s.insertTx.run(offset, tx.updateId, encodeRecord(tx));
    this.writeCompletion({ ...request.completion, offset });
    if (request.dedup) s.upsertDedup.run(request.dedup.changeKey, offset, request.completion.recordTime);
    this.end = offset;
    return { kind: "committed", offset };
  }

  private findConflict(request: TransactionCommit): Conflict | undefined {
    const s = this.stmts;
    if (request.dedup) {
      const prev = s.dedup.get(request.dedup.changeKey) as { offset: bigint; record_time: bigint } | undefined;
      if (prev && isDuplicate({ offset: prev.offset, recordTime: prev.record_time }, request.dedup)) {
        return { kind: "duplicateCommand", existingOffset: prev.offset };
      }
    }
    const inactive = request.inputs.filter((cid) => s.isActive.get(cid) === undefined);
    if (inactive.length > 0) return { kind: "inactive", contractIds: inactive };
    const archived = new Set(request.archives);
    for (const c of request.creates) {
      if (c.keyHash && s.keyInUse.get(c.keyHash) !== undefined) {
        // A key freed by an archive in this same transaction may be reused.
        const holder = s.contractByKey.get(c.keyHash) as { record: string } | undefined;
        const holderId = holder && decodeRecord<ContractRecord>(holder.record).contractId;
        if (!holderId || !archived.has(holderId)) return { kind: "duplicateKey", keyHash: c.keyHash };
      }
    }
    return undefined;
  }

  private writeCompletion(c: CompletionRecord): void {
    this.stmts.insertCompletion.run(c.offset, encodeRecord(c));
  }

  async activeContract(contractId: string): Promise<ContractRecord | undefined> {
    const hit = this.hot.get(contractId);
    if (hit) return hit;
    const found = this.one<ContractRecord>(this.stmts.contract, contractId);
    if (found) this.hot.put(found);
    return found;
  }

  async activeContractByKey(keyHash: string): Promise<ContractRecord | undefined> {
    return this.one<ContractRecord>(this.stmts.contractByKey, keyHash);
  }

  async activeContracts(query: ContractQuery): Promise<ContractRecord[]> {
    const s = this.stmts;
    const at = query.activeAtOffset;
    const templates = query.templateIds ? new Set(query.templateIds) : undefined;
    let rows: ContractRecord[];
    if (query.parties) {
      const seen = new Map<string, ContractRecord>();
      const template = templates?.size === 1 ? [...templates][0] : undefined;
      for (const party of query.parties) {
        const partyRows =
          at !== undefined
            ? this.all<ContractRecord>(s.activeByPartyAt, { party, at })
            : template
              ? this.stats.templateFirst(party, template)
                ? this.all<ContractRecord>(s.activeByTemplateAndParty, template, party)
                : this.all<ContractRecord>(s.activeByPartyAndTemplate, party, template)
              : this.all<ContractRecord>(s.activeByParty, party);
        for (const r of partyRows) seen.set(r.contractId, r);
      }
      rows = [...seen.values()];
      if (query.parties.length > 1) rows.sort((a, b) => compareCreation(a, b));
    } else if (templates && templates.size === 1) {
      const template = [...templates][0];
      rows = at === undefined ? this.all<ContractRecord>(s.activeByTemplate, template) : this.all<ContractRecord>(s.activeByTemplateAt, { template, at });
    } else {
      rows = at === undefined ? this.all<ContractRecord>(s.activeAll) : this.all<ContractRecord>(s.activeAllAt, { at });
    }
    return templates ? rows.filter((r) => templates.has(r.templateId)) : rows;
  }

  async transactions(beginExclusive: bigint, endInclusive: bigint, limit: number): Promise<TransactionRecord[]> {
    return this.all<TransactionRecord>(this.stmts.txRange, beginExclusive, endInclusive, limit);
  }

  async transactionById(updateId: string): Promise<TransactionRecord | undefined> {
    return this.one<TransactionRecord>(this.stmts.txById, updateId);
  }

  async transactionByOffset(offset: bigint): Promise<TransactionRecord | undefined> {
    return this.one<TransactionRecord>(this.stmts.txByOffset, offset);
  }

  async completions(beginExclusive: bigint, endInclusive: bigint, limit: number): Promise<CompletionRecord[]> {
    return this.all<CompletionRecord>(this.stmts.completionRange, beginExclusive, endInclusive, limit);
  }

  onLedgerEnd(listener: (end: bigint) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async addParty(party: PartyRecord): Promise<boolean> {
    return this.stmts.addParty.run(party.party, encodeRecord(party)).changes === 1;
  }
  async party(party: string): Promise<PartyRecord | undefined> {
    // Parties are never changed or removed once added: a hit can be kept for good.
    const cached = this.knownParties.get(party);
    if (cached) return cached;
    const found = this.one<PartyRecord>(this.stmts.party, party);
    if (found) remember(this.knownParties, party, found);
    return found;
  }
  async parties(pageToken: string, pageSize: number): Promise<PartyRecord[]> {
    return this.all<PartyRecord>(this.stmts.parties, pageToken, pageSize);
  }

  async addUser(user: UserRecord): Promise<boolean> {
    this.knownUsers.delete(user.id);
    return this.stmts.addUser.run(user.id, encodeRecord(user)).changes === 1;
  }
  async user(id: string): Promise<UserRecord | undefined> {
    const cached = this.knownUsers.get(id);
    if (cached) return cached;
    const found = this.one<UserRecord>(this.stmts.user, id);
    if (found) remember(this.knownUsers, id, found);
    return found;
  }
  async users(pageToken: string, pageSize: number): Promise<UserRecord[]> {
    return this.all<UserRecord>(this.stmts.users, pageToken, pageSize);
  }
  async deleteUser(id: string): Promise<boolean> {
    this.knownUsers.delete(id);
    return this.stmts.deleteUser.run(id).changes === 1;
  }
  async grantRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined> {
    return this.updateRights(id, (held) => grant(held, rights));
  }
  async revokeRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined> {
    return this.updateRights(id, (held) => revoke(held, rights));
  }
  private updateRights(
    id: string,
    change: (held: readonly UserRight[]) => { next: UserRight[]; changed: UserRight[] },
  ): UserRight[] | undefined {
    this.knownUsers.delete(id);
    return this.db.transaction(() => {
      const user = this.one<UserRecord>(this.stmts.user, id);
      if (!user) return undefined;
      const { next, changed } = change(user.rights);
      if (changed.length > 0) this.stmts.putUser.run(encodeRecord({ ...user, rights: next }), id);
      return changed;
    })();
  }

  async setting(name: string): Promise<string | undefined> {
    return (this.stmts.setting.get(name) as { value: string } | undefined)?.value;
  }
  async initSetting(name: string, value: string): Promise<string> {
    this.stmts.initSetting.run(name, value);
    return (this.stmts.setting.get(name) as { value: string }).value;
  }
  async putSetting(name: string, value: string): Promise<void> {
    this.stmts.putSetting.run(name, value);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Acknowledge whatever is queued before closing, so no accepted request is left hanging.
    if (this.queue.length > 0) this.flush();
    this.closed = true;
    await this.checkpointer?.stop();
    this.listeners.clear();
    this.db.close();
  }

  private one<T>(stmt: Statement, ...args: unknown[]): T | undefined {
    const row = stmt.get(...args) as { record: string } | undefined;
    return row ? decodeRecord<T>(row.record) : undefined;
  }
  private all<T>(stmt: Statement, ...args: unknown[]): T[] {
    return (stmt.all(...args) as { record: string }[]).map((r) => decodeRecord<T>(r.record));
  }
}

const CACHE_LIMIT = 100_000;
/** Decoded active contracts kept (a few MB): the network's contracts and recent holdings. */
const HOT_CONTRACTS = 4096;

/** Caches a record frozen (callers share it; a mutation would be a bug, so make it throw). */
function remember<T extends object>(cache: Map<string, T>, id: string, record: T): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(id, deepFreeze(record));
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

function compareCreation(a: ContractRecord, b: ContractRecord): number {
  if (a.createdOffset !== b.createdOffset) return a.createdOffset < b.createdOffset ? -1 : 1;
  return a.nodeId - b.nodeId;
}
