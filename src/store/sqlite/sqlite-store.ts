/**
 * Embedded store on SQLite (better-sqlite3): WAL journal, and a commit is on disk before it is
 * acknowledged. Concurrent commits are grouped: requests queued during one turn of the event loop
 * share one SQLite transaction, and batches committed during one fsync share the next (group
 * commit). Ledger batches are synced off the event loop (wal-sync.ts); the rare writes of
 * parties, users and settings keep `synchronous=FULL`.
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
import { isDuplicate } from "../../ledger/deduplication.js";
import { decodeRecord, encodeRecord, encodeRecordReusing } from "../codec.js";
import type { CommitRequest, CommitResult, Conflict, ContractHistory, ContractQuery, PackageRecord, PackageSummary, Store, TransactionCommit } from "../../ledger/store-port.js";
import { SAFETY_NET_PAGES, WalCheckpointer } from "./checkpointer.js";
import { readActiveContracts } from "./acs-queries.js";
import { PartyTemplateCache } from "./party-template-cache.js";
import { ContractCache } from "./contract-cache.js";
import { SqliteDirectory } from "./directory.js";
import { prepareLedgerStatements, type LedgerStatements } from "./ledger-statements.js";
import { SqlitePackages } from "./packages.js";
import { allRecords, oneRecord } from "./rows.js";
import { applySchema } from "./schema.js";
import { WalSync } from "./wal-sync.js";

/** SQLite's own default, restored if the checkpoint worker dies. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

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
  private readonly stmts: LedgerStatements;
  /** Offset of the last write; `durableEnd` of the last one synced, which is what readers see. */
  private end: bigint;
  private durableEnd: bigint;
  private queue: Pending[] = [];
  private flushScheduled = false;
  private readonly listeners = new Set<(end: bigint) => void>();
  /** `apply` in its own savepoint (a nested better-sqlite3 transaction); built once, used per request. */
  private readonly applyInSavepoint: (request: CommitRequest) => CommitResult;
  /** A batch in one SQLite transaction; with `isolate`, each request in its own savepoint. */
  private readonly writeBatch: (batch: readonly Pending[], isolate: boolean) => Outcome[];
  /** Parties, users and settings: written directly, read from memory once seen. */
  private readonly directory: SqliteDirectory;
  private readonly packageTable: SqlitePackages;
  private closed = false;
  private readonly hot = new ContractCache(HOT_CONTRACTS);
  private readonly byPartyTemplate = new PartyTemplateCache();
  private readonly checkpointer: WalCheckpointer | undefined;
  /** A write is held while the checkpointer makes the WAL rewindable (see checkpointer.ts). */
  private holding = false;
  /** Absent for `:memory:`, which has no disk to wait for. */
  private readonly walSync: WalSync | undefined;
  private readonly syncOff: Database.Statement;
  private readonly syncOn: Database.Statement;
  /** Set when an fsync failed: what reached the disk is unknown, so nothing more is committed. */
  private failure: Error | undefined;

  constructor(options: SqliteStoreOptions) {
    if (options.file !== ":memory:") mkdirSync(dirname(options.file), { recursive: true });
    this.description = `sqlite:${options.file}`;
    this.db = new Database(options.file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.syncOff = this.db.prepare("PRAGMA synchronous = NORMAL");
    this.syncOn = this.db.prepare("PRAGMA synchronous = FULL");
    this.db.pragma("busy_timeout = 5000");
    if (options.file !== ":memory:") {
      // Checkpoints run in a worker thread (see checkpointer.ts), not inside commits.
      this.db.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
      this.checkpointer = new WalCheckpointer(options.file, () => {
        if (!this.closed) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      });
      this.walSync = new WalSync(`${options.file}-wal`);
    }
    this.db.defaultSafeIntegers(true);
    applySchema(this.db);
    this.stmts = prepareLedgerStatements(this.db);
    this.directory = new SqliteDirectory(this.db);
    this.packageTable = new SqlitePackages(this.db);
    this.applyInSavepoint = this.db.transaction((request: CommitRequest) => this.apply(request));
    this.writeBatch = this.db.transaction((batch: readonly Pending[], isolate: boolean) =>
      batch.map((p) => (isolate ? this.applyIsolated(p.request) : { ok: true as const, result: this.apply(p.request) })),
    );
    const row = this.stmts.maxOffset.get() as { m: bigint | null };
    this.end = row.m ?? 0n;
    this.durableEnd = this.end;
  }

  async ledgerEnd(): Promise<bigint> {
    return this.durableEnd;
  }

  commit(request: CommitRequest): Promise<CommitResult> {
    if (this.closed) return Promise.reject(new Error("store is closed"));
    if (this.failure) return Promise.reject(this.failure);
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

  /** Writes every queued request in one SQLite transaction; acknowledges them once it is synced. */
  private flush(mayHold = true): void {
    this.flushScheduled = false;
    if (this.holding || this.queue.length === 0) return;
    if (mayHold && !this.failure && this.checkpointer?.rewindBefore(() => this.release())) {
      this.holding = true;
      return;
    }
    const batch = this.queue;
    this.queue = [];
    // After a failed sync nothing more is written: queued requests fail as later ones do.
    if (this.failure) {
      for (const p of batch) p.reject(this.failure);
      return;
    }
    const outcomes = this.write(batch);
    if (!outcomes) return;
    // The cache follows the file at once: later interpretations read these writes, and their own
    // acknowledgements wait for a later sync, which covers this batch too.
    outcomes.forEach((o, i) => {
      if (o.ok) this.cacheEffects(batch[i].request, o.result);
    });
    const end = this.end;
    const acknowledge = (error?: Error) => {
      if (error) {
        this.failure ??= error;
        for (const p of batch) p.reject(error);
        return;
      }
      if (end > this.durableEnd) this.durableEnd = end;
      outcomes.forEach((o, i) => (o.ok ? batch[i].resolve(o.result) : batch[i].reject(o.error)));
      this.checkpointer?.committed();
      for (const listener of this.listeners) {
        try {
          listener(end);
        } catch {
          // A failing listener must not keep the others from hearing about the new end.
        }
      }
    };
    if (this.walSync) this.walSync.afterCommit(acknowledge);
    else acknowledge();
  }

  /** The batch in one transaction, unsynced when a WalSync syncs it; undefined if it was rejected whole. */
  private write(batch: readonly Pending[]): Outcome[] | undefined {
    const startEnd = this.end;
    if (this.walSync) this.syncOff.run();
    try {
      return this.writeBatch(batch, false);
    } catch {
      // A request's write threw (rare): the whole transaction rolled back. Redo the batch with a
      // savepoint per request, so the one that throws is rolled back and rejected alone and the
      // others still commit together. Savepoints cost two statements per request, so they are
      // only paid on this path.
      this.end = startEnd;
      try {
        return this.writeBatch(batch, true);
      } catch (e) {
        this.end = startEnd;
        for (const p of batch) p.reject(e);
        return undefined;
      }
    } finally {
      if (this.walSync) this.syncOn.run();
    }
  }

  private release(): void {
    if (!this.holding) return;
    this.holding = false;
    this.flush();
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
      s.archive.run(offset, cid);
      for (const row of s.archiveStakeholders.all(cid) as { party: string; template_id: string }[]) this.byPartyTemplate.changed(row.party, row.template_id);
    }
    for (const c of request.creates) {
      const rec: ContractRecord = { ...c, createdOffset: offset };
      s.insertContract.run(c.contractId, c.templateId, c.keyHash ?? null, offset, c.nodeId, encodeRecord(rec));
      const stakeholders = new Set([...c.signatories, ...c.observers]);
      for (const party of stakeholders) {
        s.insertStakeholder.run(party, c.templateId, offset, c.nodeId, c.contractId);
        this.byPartyTemplate.changed(party, c.templateId);
      }
    }
    const tx: TransactionRecord = { ...request.transaction, offset };
    s.insertTx.run(offset, tx.updateId, encodeRecordReusing(tx, "nodes"));
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
    // Update ids are unique; only an externally signed one (fixed by its parties) can come twice.
    const sameId = s.txOffsetById.get(request.transaction.updateId) as { offset: bigint } | undefined;
    if (sameId) return { kind: "duplicateCommand", existingOffset: sameId.offset };
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
    this.stmts.insertCompletion.run(c.offset, encodeRecord(c), c.userId);
  }

  async activeContract(contractId: string): Promise<ContractRecord | undefined> {
    const hit = this.hot.get(contractId);
    if (hit) return hit;
    const found = oneRecord<ContractRecord>(this.stmts.contract, contractId);
    if (found) this.hot.put(found);
    return found;
  }

  async activeContractByKey(keyHash: string): Promise<ContractRecord | undefined> {
    return oneRecord<ContractRecord>(this.stmts.contractByKey, keyHash);
  }

  async contractHistory(contractId: string): Promise<ContractHistory | undefined> {
    const row = this.stmts.contractHistory.get(contractId) as { record: string; archived_offset: number | bigint | null } | undefined;
    if (!row) return undefined;
    const contract = decodeRecord<ContractRecord>(row.record);
    return row.archived_offset === null ? { contract } : { contract, archivedOffset: BigInt(row.archived_offset) };
  }

  async activeContracts(query: ContractQuery): Promise<ContractRecord[]> {
    return readActiveContracts(this.stmts, this.byPartyTemplate, query);
  }

  async transactions(beginExclusive: bigint, endInclusive: bigint, limit: number): Promise<TransactionRecord[]> {
    return allRecords<TransactionRecord>(this.stmts.txRange, beginExclusive, endInclusive, limit);
  }

  async transactionById(updateId: string): Promise<TransactionRecord | undefined> {
    return oneRecord<TransactionRecord>(this.stmts.txById, updateId);
  }

  async transactionByOffset(offset: bigint): Promise<TransactionRecord | undefined> {
    return oneRecord<TransactionRecord>(this.stmts.txByOffset, offset);
  }

  async completions(beginExclusive: bigint, endInclusive: bigint, limit: number, userId?: string): Promise<CompletionRecord[]> {
    if (userId !== undefined) return allRecords<CompletionRecord>(this.stmts.userCompletionRange, userId, beginExclusive, endInclusive, limit);
    return allRecords<CompletionRecord>(this.stmts.completionRange, beginExclusive, endInclusive, limit);
  }

  onLedgerEnd(listener: (end: bigint) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  addParty(party: PartyRecord): Promise<boolean> {
    return this.directory.addParty(party);
  }
  party(party: string): Promise<PartyRecord | undefined> {
    return this.directory.party(party);
  }
  parties(pageToken: string, pageSize: number): Promise<PartyRecord[]> {
    return this.directory.parties(pageToken, pageSize);
  }
  addUser(user: UserRecord): Promise<boolean> {
    return this.directory.addUser(user);
  }
  user(id: string): Promise<UserRecord | undefined> {
    return this.directory.user(id);
  }
  users(pageToken: string, pageSize: number): Promise<UserRecord[]> {
    return this.directory.users(pageToken, pageSize);
  }
  deleteUser(id: string): Promise<boolean> {
    return this.directory.deleteUser(id);
  }
  grantRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined> {
    return this.directory.grantRights(id, rights);
  }
  revokeRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined> {
    return this.directory.revokeRights(id, rights);
  }
  setting(name: string): Promise<string | undefined> {
    return this.directory.setting(name);
  }
  initSetting(name: string, value: string): Promise<string> {
    return this.directory.initSetting(name, value);
  }
  putSetting(name: string, value: string): Promise<void> {
    return this.directory.putSetting(name, value);
  }

  addPackage(pkg: PackageRecord): Promise<boolean> {
    return this.packageTable.addPackage(pkg);
  }
  package(packageId: string): Promise<PackageRecord | undefined> {
    return this.packageTable.package(packageId);
  }
  packages(): Promise<PackageSummary[]> {
    return this.packageTable.packages();
  }

  async probe(): Promise<void> {
    // A store that lost a sync is not ready until a restart recovers it from the file.
    if (this.failure) throw this.failure;
    this.stmts.maxOffset.get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Acknowledge whatever is queued before closing, so no accepted request is left hanging
    // (a write held for a WAL rewind goes now: the rewind no longer matters).
    this.holding = false;
    if (this.queue.length > 0) this.flush(false);
    this.closed = true;
    await this.walSync?.close();
    await this.checkpointer?.stop();
    this.listeners.clear();
    this.db.close();
  }
}

/** Decoded active contracts kept (a few MB): the network's contracts and recent holdings. */
const HOT_CONTRACTS = 4096;
