/**
 * Embedded store on SQLite (better-sqlite3): WAL journal, and a commit is on disk before it is
 * acknowledged. The ledger's writes run on a writer thread with its own connection
 * (writer-thread.ts): the requests of one turn of the event loop go to it as a batch, and it
 * writes the batches that wait together and syncs them together (group commit). The event loop
 * keeps a connection for reads and for the rare writes of parties, users, settings and packages
 * (`synchronous=FULL`), and the caches of hot contracts, which follow each batch once it is
 * durable. A conflict found at commit writes nothing; the request's own completion for it is
 * written with the next batch.
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
import { decodeRecord } from "../codec.js";
import { CommitOutcomeUnknown, type CommitRequest, type CommitResult, type ContractHistory, type ContractPageQuery, type ContractQuery, type PackageRecord, type PackageSummary, type Store, type TransactionCommit } from "../../ledger/store-port.js";
import { SAFETY_NET_PAGES, WalCheckpointer } from "./checkpointer.js";
import { compareCreation, queryAsksFor, readActiveContracts, readActivePage } from "./acs-queries.js";
import { PartyTemplateCache, setsChangedBy, setsOf, type PartyTemplate } from "./party-template-cache.js";
import { ContractCache } from "./contract-cache.js";
import { InFlightArchives, type InFlightArchive } from "./in-flight-archives.js";
import { SqliteDirectory } from "./directory.js";
import { prepareLedgerStatements, type LedgerStatements } from "./ledger-statements.js";
import { LoopWrites } from "./loop-writes.js";
import { SqlitePackages } from "./packages.js";
import { allRecords, oneRecord, recordsWithin } from "./rows.js";
import { applySchema } from "./schema.js";
import { BatchNotWritten, InThreadWriter, ThreadWriter, type BatchWriter, type Written } from "./batch-writer.js";
import { writeRequestOf, type WriteRequest } from "./write-request.js";
import { extend } from "../../util/extend.js";

/** SQLite's own default, restored if the checkpoint worker dies. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** A contract's row as `contractHistory` reads it. */
interface HistoryRow {
  readonly record: string;
  readonly archived_offset: number | bigint | null;
}

interface Pending {
  readonly request: CommitRequest;
  readonly resolve: (r: CommitResult) => void;
  readonly reject: (e: unknown) => void;
}

/** What a batch with the writer holds of the party/template cache (see party-template-cache.ts). */
interface Holds {
  readonly sets: PartyTemplate[];
  /**
   * A request archiving a contract neither the hot cache nor the file knows (a batch still in
   * flight creates it, or the id is made up): its sets are unknown, so multi-set reads skip the
   * cache meanwhile and its answer forgets every kept set.
   */
  readonly blind: boolean;
  /** The contracts it archives that the file did not show archived at hand-over, known or not (see in-flight-archives.ts). */
  readonly archives: readonly InFlightArchive[];
}

export interface SqliteStoreOptions {
  /** Path of the database file; `:memory:` for tests that need no durability. */
  readonly file: string;
}

export class SqliteStore implements Store {
  readonly description: string;
  /** The event loop's connection: reads, and the rare writes of parties, users and packages. */
  private readonly db: Database.Database;
  private readonly stmts: LedgerStatements;
  /** The last offset answered (durable, and told to its committers): what every read shows. */
  private durableEnd: bigint;
  private queue: Pending[] = [];
  private flushScheduled = false;
  private answersScheduled = false;
  /** Batches handed to the writer and not yet answered. */
  private inFlight = 0;
  /** Batches in flight whose changed sets are not all known (see Holds). */
  private blind = 0;
  private idle: (() => void) | undefined;
  private readonly listeners = new Set<(end: bigint) => void>();
  private readonly writer: BatchWriter;
  /** Parties, users and settings: written directly, read from memory once seen. */
  private readonly directory: SqliteDirectory;
  private readonly packageTable: SqlitePackages;
  private closed = false;
  private readonly hot = new ContractCache(HOT_CONTRACTS);
  private readonly byPartyTemplate = new PartyTemplateCache();
  private readonly inFlightArchives = new InFlightArchives();
  private readonly checkpointer: WalCheckpointer | undefined;
  /** A write is held while the checkpointer makes the WAL rewindable (see checkpointer.ts). */
  private holding = false;
  /** Set when a commit failed: what reached the disk is unknown, so nothing more is committed. */
  private failure: Error | undefined;

  constructor(options: SqliteStoreOptions) {
    if (options.file !== ":memory:") mkdirSync(dirname(options.file), { recursive: true });
    this.description = `sqlite:${options.file}`;
    this.db = new Database(options.file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("busy_timeout = 5000");
    this.db.defaultSafeIntegers(true);
    applySchema(this.db);
    this.stmts = prepareLedgerStatements(this.db);
    const writes = new LoopWrites();
    this.directory = new SqliteDirectory(this.db, writes);
    this.packageTable = new SqlitePackages(this.db, writes);
    const row = this.stmts.maxOffset.get() as { m: bigint | null };
    this.durableEnd = row.m ?? 0n;
    if (options.file === ":memory:") {
      this.writer = new InThreadWriter(this.db);
      return;
    }
    // The loop never waits inside SQLite for the writer's lock (see loop-writes.ts).
    this.db.pragma("busy_timeout = 0");
    // Checkpoints run in a worker thread (see checkpointer.ts), not inside commits.
    this.db.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
    this.writer = new ThreadWriter(options.file, SAFETY_NET_PAGES);
    this.checkpointer = new WalCheckpointer(options.file, () => {
      if (this.closed) return;
      this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      this.writer.setAutocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
    });
  }

  async ledgerEnd(): Promise<bigint> {
    return this.durableEnd;
  }

  commit(request: CommitRequest): Promise<CommitResult> {
    if (this.closed) return Promise.reject(new Error("store is closed"));
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.enqueue({ request, resolve, reject }));
  }

  private enqueue(p: Pending): void {
    this.queue.push(p);
    this.takeAnswersSoon();
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /**
   * Once the code that asked for this commit has run, takes the writer's answers that arrived in
   * the meantime (ThreadWriter): a send is answered between two requests' handlers rather than
   * after the loop's whole turn (the writer's round trip fell from ~5.5 to ~4.5 ms under sends).
   */
  private takeAnswersSoon(): void {
    if (this.answersScheduled || this.inFlight === 0) return;
    this.answersScheduled = true;
    queueMicrotask(() => {
      this.answersScheduled = false;
      this.writer.takeArrived();
    });
  }

  async acceptedCommand(changeKey: string): Promise<{ offset: bigint; recordTime: bigint } | undefined> {
    // At the durable end, as the reads below: a batch in flight that accepts it is not yet
    // accepted (the writer checks duplicates again inside each commit).
    const row = this.stmts.dedup.get(changeKey) as { offset: bigint; record_time: bigint } | undefined;
    return row && row.offset <= this.durableEnd ? { offset: row.offset, recordTime: row.record_time } : undefined;
  }

  /** Hands every queued request to the writer as one batch (it groups those that wait). */
  private flush(mayHold = true): void {
    this.flushScheduled = false;
    if (this.holding || this.queue.length === 0) return this.settleIdle();
    if (mayHold && !this.failure && this.checkpointer?.wantsRewind()) {
      // A rewind needs a checkpoint with no commit in between: the batches with the writer go
      // first (their answers flush again), then the writes are held for the checkpoint.
      if (this.inFlight > 0) return;
      if (this.checkpointer.rewindBefore(() => this.release())) {
        this.holding = true;
        return;
      }
    }
    const batch = this.queue;
    this.queue = [];
    // After a failed commit nothing more is written: queued requests fail as later ones do.
    if (this.failure) {
      for (const p of batch) p.reject(this.failure);
      return this.settleIdle();
    }
    const requests: WriteRequest[] = [];
    const sent: Pending[] = [];
    for (const p of batch) {
      try {
        requests.push(writeRequestOf(p.request));
        sent.push(p);
      } catch (e) {
        p.reject(e); // a record that cannot be encoded fails alone
      }
    }
    if (sent.length === 0) return this.settleIdle();
    const holds = this.hold(sent);
    this.inFlight++;
    this.writer.write(requests).then(
      (written) => {
        this.unhold(holds);
        this.inFlightArchives.remove(holds.archives);
        this.written(sent, written);
      },
      (error: unknown) => {
        this.unhold(holds);
        if (error instanceof BatchNotWritten) {
          this.inFlightArchives.remove(holds.archives);
          for (const p of sent) p.reject(error);
        } else {
          // Nothing more is written; this batch itself may or may not be in the file. Its
          // archives stay in flight, and reads stay bounded by the durable end from now on.
          this.failure ??= error instanceof Error ? error : new Error(String(error));
          const unknown = new CommitOutcomeUnknown(`SQLite commit has an unknown outcome (${this.failure.message}): it may or may not be on disk`, { cause: error });
          for (const p of sent) p.reject(unknown);
        }
        this.answered();
      },
    );
  }

  /** A durable batch: caches follow it, then its requests are answered and readers told. */
  private written(sent: readonly Pending[], { outcomes, end }: Written): void {
    const conflicts: Pending[] = [];
    outcomes.forEach((o, i) => {
      const p = sent[i];
      switch (o.kind) {
        case "committed":
          this.cacheEffects(p.request, o.offset);
          return;
        case "conflict": {
          // Its completion is the request's own answer to the conflict, written next.
          const request = p.request as TransactionCommit;
          try {
            conflicts.push({
              request: { kind: "rejection", completion: request.onConflict(o.conflict) },
              resolve: (r) => p.resolve({ kind: "rejected", offset: r.offset, conflict: o.conflict }),
              reject: p.reject,
            });
          } catch (e) {
            p.reject(e);
          }
          return;
        }
      }
    });
    if (end > this.durableEnd) this.durableEnd = end;
    outcomes.forEach((o, i) => {
      const p = sent[i];
      if (o.kind === "committed") p.resolve({ kind: "committed", offset: o.offset });
      else if (o.kind === "rejected") p.resolve({ kind: "rejected", offset: o.offset });
      else if (o.kind === "failed") p.reject(new Error(o.error));
    });
    for (const c of conflicts) this.enqueue(c);
    this.checkpointer?.committed();
    for (const listener of this.listeners) {
      try {
        listener(this.durableEnd);
      } catch {
        // A failing listener must not keep the others from hearing about the new end.
      }
    }
    this.answered();
  }

  private hold(sent: readonly Pending[]): Holds {
    const sets: PartyTemplate[] = [];
    const archives: InFlightArchive[] = [];
    let blind = false;
    const archiving = (cid: string) => {
      const of = this.setsArchiving(cid);
      // No sets: the file has it archived already (the request conflicts, or a batch before it
      // in flight archives it and is counted there). Unknown (undefined) is counted too.
      if (of === undefined || of.length > 0) archives.push(this.inFlightArchives.add(cid, of));
      return of;
    };
    for (const p of sent) {
      const changed = setsChangedBy(p.request, archiving);
      if (changed) sets.push(...changed);
      else blind = true;
    }
    this.byPartyTemplate.hold(sets);
    if (blind) this.blind++;
    return { sets, blind, archives };
  }

  /**
   * The sets an archive of this contract changes: the contract's own, from its hot record or the
   * file; none if the file has it archived already (the request conflicts, or archives nothing:
   * a request that spends a contract someone else just spent must not cost every kept set);
   * undefined if neither knows it (a batch still in flight creates it) or the file cannot be read
   * (this runs while a batch is handed over, which must not throw).
   */
  private setsArchiving(contractId: string): PartyTemplate[] | undefined {
    const hot = this.hot.get(contractId);
    if (hot) return setsOf(hot);
    try {
      const rows = this.stmts.activeSets.all(contractId) as { party: string; template_id: string }[];
      if (rows.length > 0) return rows.map((r) => [r.party, r.template_id]);
      return this.stmts.wasArchived.get(contractId) === undefined ? undefined : [];
    } catch {
      return undefined;
    }
  }

  private unhold(holds: Holds): void {
    this.byPartyTemplate.release(holds.sets);
    if (!holds.blind) return;
    this.blind--;
    this.byPartyTemplate.forgetAll();
  }

  private answered(): void {
    this.inFlight--;
    if (this.inFlight === 0) this.flush(!this.closed);
  }

  private settleIdle(): void {
    if (this.inFlight > 0 || this.queue.length > 0 || !this.idle) return;
    const idle = this.idle;
    this.idle = undefined;
    idle();
  }

  private release(): void {
    if (!this.holding) return;
    this.holding = false;
    this.flush();
  }

  /**
   * What a committed write did to the active contracts, applied to the hot cache once it is
   * durable (the kept sets it changes were dropped when it was handed over, see `hold`).
   */
  private cacheEffects(request: CommitRequest, offset: bigint): void {
    if (request.kind !== "transaction") return;
    for (const cid of request.archives) this.hot.archived(cid);
    for (const c of request.creates) this.hot.put(extend(c, { createdOffset: offset }));
  }

  // Reads of the current state show the ledger at the durable end: a batch the writer has
  // committed is in the file before its sync ends and it is answered, and a crash meanwhile would
  // take back what such a read had shown (see in-flight-archives.ts).

  async activeContract(contractId: string): Promise<ContractRecord | undefined> {
    const hit = this.hot.get(contractId);
    if (hit) return hit;
    const row = this.historyRow(contractId);
    if (!row || this.archivedAt(row) !== undefined) return undefined;
    const found = decodeRecord<ContractRecord>(row.record);
    if (found.createdOffset > this.durableEnd) return undefined;
    // Not cached when a batch in flight archives it: the hot cache holds what stays active.
    if (row.archived_offset === null) this.hot.put(found);
    return found;
  }

  async activeContractByKey(keyHash: string): Promise<ContractRecord | undefined> {
    // Bounded as a read by id is (the interpreter reads the contract it finds again by id). A key
    // whose contract a batch in flight archives reads as free, as it is for a command, which
    // commits after that batch.
    const found = oneRecord<ContractRecord>(this.stmts.contractByKey, keyHash);
    return found && found.createdOffset <= this.durableEnd ? found : undefined;
  }

  async contractHistory(contractId: string): Promise<ContractHistory | undefined> {
    const row = this.historyRow(contractId);
    if (!row) return undefined;
    const contract = decodeRecord<ContractRecord>(row.record);
    if (contract.createdOffset > this.durableEnd) return undefined;
    const archivedOffset = this.archivedAt(row);
    return archivedOffset === undefined ? { contract } : { contract, archivedOffset };
  }

  private historyRow(contractId: string): HistoryRow | undefined {
    return this.stmts.contractHistory.get(contractId) as HistoryRow | undefined;
  }

  /** The offset that archived the contract, if the durable end covers it. */
  private archivedAt(row: HistoryRow): bigint | undefined {
    if (row.archived_offset === null) return undefined;
    const at = BigInt(row.archived_offset);
    return at <= this.durableEnd ? at : undefined;
  }

  async activeContracts(query: ContractQuery): Promise<ContractRecord[]> {
    // Several statements of the current ACS read one snapshot: the writer thread may commit
    // between them (a lock between a party's holdings and its locked holdings would count
    // twice), and the kept sets are the file's but for those of batches in flight, which are
    // read too; `atDurableEnd` then takes the snapshot back to the durable end. A snapshot at an
    // offset already durable is the same whenever it is read.
    const oneStatement = query.activeAtOffset !== undefined || ((query.parties?.length ?? 0) <= 1 && (query.templateIds?.length ?? 0) <= 1);
    const cache = oneStatement || this.blind === 0 ? this.byPartyTemplate : new PartyTemplateCache();
    if (oneStatement || this.db.inTransaction) return this.atDurableEnd(query, readActiveContracts(this.stmts, cache, query));
    this.stmts.beginRead.run();
    try {
      return this.atDurableEnd(query, readActiveContracts(this.stmts, cache, query));
    } finally {
      this.stmts.endRead.run();
    }
  }

  /**
   * The current ACS as read from the file, bounded by the durable end: without the contracts of
   * batches in flight, with those they archive. Nothing to do when no batch is in flight, unless a
   * commit failed with its outcome unknown: the file may hold that batch, durable or not.
   */
  private atDurableEnd(query: ContractQuery, rows: ContractRecord[]): ContractRecord[] {
    if (query.activeAtOffset !== undefined || (this.inFlight === 0 && !this.failure)) return rows;
    const end = this.durableEnd;
    const kept = rows.some((r) => r.createdOffset > end) ? rows.filter((r) => r.createdOffset <= end) : rows;
    const archived = this.inFlightArchives.matching(query);
    if (archived.length === 0) return kept;
    // Those the writer has not committed yet are still active in the file, and read already.
    const read = new Set(kept.map((r) => r.contractId));
    const back: ContractRecord[] = [];
    for (const cid of archived) {
      const row = read.has(cid) ? undefined : this.historyRow(cid);
      if (!row || this.archivedAt(row) !== undefined) continue;
      const record = decodeRecord<ContractRecord>(row.record);
      if (record.createdOffset > end || !queryAsksFor(query, record)) continue;
      read.add(cid);
      back.push(record);
    }
    return back.length === 0 ? kept : [...kept, ...back].sort(compareCreation);
  }

  async activeContractsPage(query: ContractPageQuery): Promise<ContractRecord[]> {
    // Its statements read a snapshot already durable, the same whichever commits come between them.
    return readActivePage(this.stmts, query);
  }

  async transactions(beginExclusive: bigint, endInclusive: bigint, limit: number, maxBytes?: number): Promise<TransactionRecord[]> {
    if (maxBytes === undefined) return allRecords<TransactionRecord>(this.stmts.txRange, beginExclusive, endInclusive, limit);
    return recordsWithin<TransactionRecord>(this.stmts.txRange, maxBytes, beginExclusive, endInclusive, limit);
  }

  async transactionById(updateId: string): Promise<TransactionRecord | undefined> {
    return this.durable(oneRecord<TransactionRecord>(this.stmts.txById, updateId));
  }

  async transactionByOffset(offset: bigint): Promise<TransactionRecord | undefined> {
    return this.durable(oneRecord<TransactionRecord>(this.stmts.txByOffset, offset));
  }

  /** A transaction, unless a batch not yet answered wrote it. */
  private durable(tx: TransactionRecord | undefined): TransactionRecord | undefined {
    return tx && tx.offset <= this.durableEnd ? tx : undefined;
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
  updateParty(party: string, change: (party: PartyRecord) => PartyRecord): Promise<PartyRecord | undefined> {
    return this.directory.updateParty(party, change);
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
  updateUser(id: string, change: (user: UserRecord) => UserRecord): Promise<UserRecord | undefined> {
    return this.directory.updateUser(id, change);
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
    // A store that lost a commit (or its writer) is not ready until a restart recovers it from the file.
    const failure = this.failure ?? this.writer.failure;
    if (failure) throw failure;
    this.stmts.maxOffset.get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Answer whatever is queued before closing, so no accepted request is left hanging (a write
    // held for a WAL rewind goes now: the rewind no longer matters).
    this.holding = false;
    await new Promise<void>((resolve) => {
      this.idle = resolve;
      this.flush(false);
    });
    await this.writer.close();
    await this.checkpointer?.stop();
    this.listeners.clear();
    this.db.close();
  }
}

/** Decoded active contracts kept (a few MB): the network's contracts and recent holdings. */
const HOT_CONTRACTS = 4096;
