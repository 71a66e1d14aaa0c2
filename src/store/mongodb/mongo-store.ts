/**
 * Production store on MongoDB (replica set or sharded cluster), with the observable behaviour of
 * the SQLite adapter. Commits are multi-document transactions, serialised across all instances
 * sharing the database by the ledger-end counter (offsets.ts) and grouped per instance
 * (group-commit.ts); every write waits for a majority of journals for a bounded time
 * (durability.ts), and one that may or may not have landed answers REQUEST_TIME_OUT
 * (single-writes.ts). Every operation runs in a causally consistent session that starts after all
 * this instance knows committed (causal-clock.ts). The ledger end of other instances' commits
 * arrives through a change stream (ledger-end-tail.ts).
 */
import { MongoClient } from "mongodb";
import type { ClientSession, Collection, Filter, FindCursor, Timestamp } from "mongodb";
import type {
  CompletionRecord,
  ContractRecord,
  PartyRecord,
  TransactionRecord,
  UserRecord,
  UserRight,
} from "../../ledger/records.js";
import { decodeRecord, encodeRecord } from "../codec.js";
import type { CommitRequest, CommitResult, ContractHistory, ContractPageQuery, ContractQuery, PackageRecord, PackageSummary, Store } from "../../ledger/store-port.js";
import { CausalClock } from "./causal-clock.js";
import type { Collections } from "./collections.js";
import { openCollections } from "./collections.js";
import type { CommitSettings } from "./commit-batch.js";
import { commitBatch } from "./commit-batch.js";
import { checkDeployment, parseUri } from "./connection.js";
import type { ContractDoc, RecordDoc } from "./documents.js";
import { commitTimeoutMs, dbOptions } from "./durability.js";
import { GroupCommit } from "./group-commit.js";
import { LedgerEndTail } from "./ledger-end-tail.js";
import { readLedgerEnd } from "./offsets.js";
import { changeRights, grant, revoke } from "../rights-change.js";
import { inTransaction } from "./transaction.js";
import { MongoPackages } from "./packages.js";
import { SingleWrites } from "./single-writes.js";
import { extend, updated } from "../../util/extend.js";

export interface MongoStoreOptions {
  /** Database name; defaults to the connection string's path, else "ccwallet". */
  readonly dbName?: string;
  /**
   * How long a commit, or any other write, waits for a majority of journals (its `wtimeout`) before
   * its outcome counts as unknown; defaults to the connection string's `wtimeoutMS`, else
   * DEFAULT_COMMIT_TIMEOUT_MS.
   */
  readonly commitTimeoutMs?: number;
}

export class MongoStore implements Store {
  private readonly listeners = new Set<(end: bigint) => void>();
  private readonly commits: GroupCommit;
  /** The latest time this instance knows committed; every operation's session starts after it. */
  private readonly clock = new CausalClock();
  private readonly inSession = <T>(fn: (session: ClientSession) => Promise<T>): Promise<T> => this.clock.run(this.client, fn);
  private readonly packageStore: MongoPackages;
  private readonly writes = new SingleWrites(this.inSession);
  private readonly commitSettings: CommitSettings;
  private tail: LedgerEndTail | undefined;
  private closed = false;

  private constructor(
    readonly description: string,
    private readonly client: MongoClient,
    private readonly cols: Collections,
    /** The highest offset known committed: by this instance, or seen by the tail. */
    private knownEnd: bigint,
    settings: Omit<CommitSettings, "client" | "cols" | "clock">,
  ) {
    this.commitSettings = extend(settings, { client, cols, clock: this.clock });
    this.commits = new GroupCommit(
      (requests) => commitBatch(this.commitSettings, requests),
      (lastOffset) => this.advance(lastOffset),
    );
    this.packageStore = new MongoPackages(cols.packages, this.inSession, this.writes);
  }

  /** Connects, checks the deployment, and creates the collections and indexes that are missing. */
  static async connect(uri: string, options: MongoStoreOptions = {}): Promise<MongoStore> {
    const client = new MongoClient(uri);
    const { dbName, description } = parseUri(uri, options.dbName);
    try {
      await client.connect();
      const deployment = await checkDeployment(client);
      const timeoutMs = commitTimeoutMs(options.commitTimeoutMs, client.options.writeConcern?.wtimeoutMS);
      const cols = await openCollections(client.db(dbName, dbOptions(timeoutMs)));
      const settings = { commitTimeoutMs: timeoutMs, maxDocumentBytes: deployment.maxDocumentBytes };
      return new MongoStore(description, client, cols, await readLedgerEnd(cols.meta), settings);
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async ledgerEnd(): Promise<bigint> {
    const stored = await this.inSession((session) => readLedgerEnd(this.cols.meta, session));
    // Never behind what this instance has already acknowledged or announced.
    return stored > this.knownEnd ? stored : this.knownEnd;
  }

  commit(request: CommitRequest): Promise<CommitResult> {
    if (this.closed) return Promise.reject(new Error("store is closed"));
    return this.commits.submit(request);
  }

  async acceptedCommand(changeKey: string): Promise<{ offset: bigint; recordTime: bigint } | undefined> {
    const doc = await this.inSession((session) => this.cols.dedup.findOne({ _id: changeKey }, { session }));
    return doc ? { offset: doc.offset, recordTime: doc.recordTime } : undefined;
  }

  async activeContract(contractId: string): Promise<ContractRecord | undefined> {
    return decodeOne(await this.inSession((session) => this.cols.contracts.findOne({ _id: contractId, archivedOffset: null }, { session })));
  }

  async activeContractByKey(keyHash: string): Promise<ContractRecord | undefined> {
    return decodeOne(await this.inSession((session) => this.cols.contracts.findOne({ keyHash, archivedOffset: null }, { session })));
  }

  async contractHistory(contractId: string): Promise<ContractHistory | undefined> {
    const doc = await this.inSession((session) => this.cols.contracts.findOne({ _id: contractId }, { session }));
    if (!doc) return undefined;
    const contract = decodeRecord<ContractRecord>(doc.record);
    return doc.archivedOffset === null ? { contract } : { contract, archivedOffset: BigInt(doc.archivedOffset) };
  }

  async activeContracts(query: ContractQuery): Promise<ContractRecord[]> {
    const scope: Filter<ContractDoc> = {};
    if (query.parties) scope.stakeholders = { $in: query.parties };
    if (query.templateIds) scope.templateId = { $in: query.templateIds };
    const at = query.activeAtOffset;
    const inOrder = { createdOffset: 1, nodeId: 1 } as const;
    if (at === undefined) {
      return this.inSession((session) => decodeAll(this.cols.contracts.find(updated(scope, { archivedOffset: null }), { session }).sort(inOrder)));
    }
    if (at <= 0n) return [];
    // Two reads, each on its own index: active now, then archived after `at` (both created at or
    // before it). In this order a contract archived between the reads is in both, never in
    // neither; the duplicate is dropped by id. One causal session: the second read is at or after
    // the first.
    const [active, archivedLater] = await this.inSession(async (session) => [
      await this.cols.contracts.find(updated(scope, { archivedOffset: null, createdOffset: { $lte: at } }), { session }).toArray(),
      await this.cols.contracts.find(updated(scope, { archivedOffset: { $gt: at }, createdOffset: { $lte: at } }), { session }).toArray(),
    ]);
    return snapshotOf(active, archivedLater).map((doc) => decodeRecord<ContractRecord>(doc.record));
  }

  async activeContractsPage(query: ContractPageQuery): Promise<ContractRecord[]> {
    const at = query.activeAtOffset;
    if (at <= 0n) return [];
    const after = query.after;
    // A range on createdOffset the indexes bound, and the node ids of its first offset left out.
    const scope: Filter<ContractDoc> = after
      ? { createdOffset: { $gte: after.offset, $lte: at }, $or: [{ createdOffset: { $gt: after.offset } }, { nodeId: { $gt: after.nodeId } }] }
      : { createdOffset: { $lte: at } };
    if (query.parties) scope.stakeholders = { $in: [...query.parties] };
    const inOrder = { createdOffset: 1, nodeId: 1 } as const;
    // As in activeContracts: active now, then archived after `at`, one causal session; each read's
    // first `limit` in order, so the first `limit` of both together are the page. With maxBytes,
    // each read also stops where its own records reach it: the page cannot go on past there.
    const [active, archivedLater] = await this.inSession(async (session) => [
      await prefixWithin(this.cols.contracts.find(updated(scope, { archivedOffset: null }), { session }).sort(inOrder), query.limit, query.maxBytes),
      await prefixWithin(this.cols.contracts.find(updated(scope, { archivedOffset: { $gt: at } }), { session }).sort(inOrder), query.limit, query.maxBytes),
    ]);
    const page: ContractRecord[] = [];
    let bytes = 0;
    for (const doc of snapshotOf(active, archivedLater).slice(0, query.limit)) {
      page.push(decodeRecord<ContractRecord>(doc.record));
      bytes += doc.record.length;
      if (query.maxBytes !== undefined && bytes >= query.maxBytes) break;
    }
    return page;
  }

  async transactions(beginExclusive: bigint, endInclusive: bigint, limit: number, maxBytes?: number): Promise<TransactionRecord[]> {
    return this.inSession((session) => {
      const cursor = this.cols.transactions.find({ _id: { $gt: beginExclusive, $lte: endInclusive } }, { session }).sort({ _id: 1 });
      return maxBytes === undefined ? decodeAll(cursor, limit) : decodeWithin(cursor, limit, maxBytes);
    });
  }

  async transactionById(updateId: string): Promise<TransactionRecord | undefined> {
    return decodeOne(await this.inSession((session) => this.cols.transactions.findOne({ updateId }, { session })));
  }

  async transactionByOffset(offset: bigint): Promise<TransactionRecord | undefined> {
    return decodeOne(await this.inSession((session) => this.cols.transactions.findOne({ _id: offset }, { session })));
  }

  async completions(beginExclusive: bigint, endInclusive: bigint, limit: number, userId?: string): Promise<CompletionRecord[]> {
    const offsets = { _id: { $gt: beginExclusive, $lte: endInclusive } };
    // `null` also matches documents written before they carried the user (decoded, they are the
    // caller's to filter, as every completion was before).
    const filter = userId === undefined ? offsets : extend(offsets, { userId: { $in: [userId, null] } });
    return this.inSession((session) => decodeAll(this.cols.completions.find(filter, { session }).sort({ _id: 1 }), limit));
  }

  onLedgerEnd(listener: (end: bigint) => void): () => void {
    this.listeners.add(listener);
    // Started with the first listener: until then nobody needs other instances' commits.
    if (!this.closed) this.tail ??= new LedgerEndTail(this.client, this.cols, (end, at) => this.seen(end, at));
    return () => this.listeners.delete(listener);
  }

  async addParty(party: PartyRecord): Promise<boolean> {
    return this.writes.insertIfAbsent(this.cols.parties, party.party, party, "party");
  }
  async party(party: string): Promise<PartyRecord | undefined> {
    return decodeOne(await this.inSession((session) => this.cols.parties.findOne({ _id: party }, { session })));
  }
  async parties(pageToken: string, pageSize: number): Promise<PartyRecord[]> {
    return this.inSession((session) => decodeAll(this.cols.parties.find({ _id: { $gt: pageToken } }, { session }).sort({ _id: 1 }), pageSize));
  }
  async updateParty(party: string, change: (party: PartyRecord) => PartyRecord): Promise<PartyRecord | undefined> {
    return this.rewrite(this.cols.parties, party, change);
  }

  async addUser(user: UserRecord): Promise<boolean> {
    return this.writes.insertIfAbsent(this.cols.users, user.id, user, "user");
  }
  async user(id: string): Promise<UserRecord | undefined> {
    return decodeOne(await this.inSession((session) => this.cols.users.findOne({ _id: id }, { session })));
  }
  async users(pageToken: string, pageSize: number): Promise<UserRecord[]> {
    return this.inSession((session) => decodeAll(this.cols.users.find({ _id: { $gt: pageToken } }, { session }).sort({ _id: 1 }), pageSize));
  }
  async deleteUser(id: string): Promise<boolean> {
    return this.writes.deleteById(this.cols.users, id, "user");
  }
  async grantRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined> {
    return changeRights((i, c) => this.updateUser(i, c), id, (held) => grant(held, rights));
  }
  async revokeRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined> {
    return changeRights((i, c) => this.updateUser(i, c), id, (held) => revoke(held, rights));
  }


  async updateUser(id: string, change: (user: UserRecord) => UserRecord): Promise<UserRecord | undefined> {
    return this.rewrite(this.cols.users, id, change);
  }

  /** Read-modify-write of one record in a transaction: a concurrent change conflicts and is retried. */
  private rewrite<T>(col: Collection<RecordDoc>, id: string, change: (held: T) => T): Promise<T | undefined> {
    return inTransaction(this.commitSettings, async (session) => {
      const doc = await col.findOne({ _id: id }, { session });
      if (!doc) return undefined;
      const held = decodeRecord<T>(doc.record);
      const next = change(held);
      if (next !== held) await col.updateOne({ _id: id }, { $set: { record: encodeRecord(next) } }, { session });
      return next;
    });
  }

  async setting(name: string): Promise<string | undefined> {
    return (await this.inSession((session) => this.cols.settings.findOne({ _id: name }, { session })))?.value;
  }
  async initSetting(name: string, value: string): Promise<string> {
    const doc = await this.writes.idempotent(`setting ${name}`, (session) =>
      this.cols.settings.findOneAndUpdate({ _id: name }, { $setOnInsert: { value } }, { upsert: true, returnDocument: "after", session }),
    );
    // An upsert returning the document "after" always has one: the one found or the one inserted.
    if (!doc) throw new Error(`upsert of setting ${name} returned no document`);
    return doc.value;
  }
  async putSetting(name: string, value: string): Promise<void> {
    await this.writes.idempotent(`setting ${name}`, (session) => this.cols.settings.updateOne({ _id: name }, { $set: { value } }, { upsert: true, session }));
  }

  addPackage(pkg: PackageRecord): Promise<boolean> {
    return this.packageStore.addPackage(pkg);
  }
  package(packageId: string): Promise<PackageRecord | undefined> {
    return this.packageStore.package(packageId);
  }
  packages(): Promise<PackageSummary[]> {
    return this.packageStore.packages();
  }

  async probe(): Promise<void> {
    // A store whose commit has an unknown outcome commits nothing more: not ready until a restart.
    const failure = this.commits.failure;
    if (failure) throw failure;
    await this.cols.meta.findOne({});
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Answer every accepted request before the client goes.
    await this.commits.idle();
    this.listeners.clear();
    await this.tail?.stop();
    await this.client.close();
  }

  /**
   * An offset the tail saw committed, at cluster time `at`: the clock moves first, so that the
   * listeners' reads up to `end` are served from a snapshot that holds it.
   */
  private seen(end: bigint, at: Timestamp | undefined): void {
    if (at) this.clock.observe({ operationTime: at });
    this.advance(end);
  }

  /** Raises the known end and tells the listeners, once per new end whichever path reports it first. */
  private advance(end: bigint): void {
    if (end <= this.knownEnd) return;
    this.knownEnd = end;
    for (const listener of this.listeners) notify(listener, end);
  }
}

/**
 * A throwing listener must not break the commit pipeline or the tail: its error is rethrown
 * outside them, as an uncaught exception, which is also what it becomes with the SQLite adapter.
 */
function notify(listener: (end: bigint) => void, end: bigint): void {
  try {
    listener(end);
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

/** The cursor's first `limit` documents, and none after the first that brings their records' text to `maxBytes`. */
async function prefixWithin<T extends { readonly record: string }>(cursor: FindCursor<T>, limit: number, maxBytes: number | undefined): Promise<T[]> {
  if (maxBytes === undefined) return cursor.limit(limit).toArray();
  const out: T[] = [];
  let bytes = 0;
  try {
    for await (const doc of cursor.limit(limit)) {
      out.push(doc);
      bytes += doc.record.length;
      if (bytes >= maxBytes) break;
    }
  } finally {
    await cursor.close();
  }
  return out;
}

/** The contracts of both reads of a snapshot (active now, archived after it), each once, in creation order. */
function snapshotOf(active: readonly ContractDoc[], archivedLater: readonly ContractDoc[]): ContractDoc[] {
  const byId = new Map<string, ContractDoc>();
  for (const doc of [...active, ...archivedLater]) byId.set(doc._id, doc);
  return [...byId.values()].sort(compareCreation);
}

function compareCreation(a: ContractDoc, b: ContractDoc): number {
  if (a.createdOffset !== b.createdOffset) return a.createdOffset < b.createdOffset ? -1 : 1;
  return a.nodeId - b.nodeId;
}

function decodeOne<T>(doc: { record: string } | null): T | undefined {
  return doc ? decodeRecord<T>(doc.record) : undefined;
}

/**
 * The records of a query, at most `limit` with the SQL meaning the SQLite adapter gives it
 * (0: none, negative: no limit) rather than MongoDB's (where 0 means no limit).
 */
/** Up to `limit` records, and none after the first that brings their text to `maxBytes`. */
async function decodeWithin<T>(cursor: FindCursor<{ record: string }>, limit: number, maxBytes: number): Promise<T[]> {
  const out: T[] = [];
  if (limit === 0) return out;
  let bytes = 0;
  try {
    for await (const doc of cursor.limit(limit)) {
      out.push(decodeRecord<T>(doc.record));
      bytes += doc.record.length;
      if (bytes >= maxBytes) break;
    }
  } finally {
    await cursor.close();
  }
  return out;
}

async function decodeAll<T>(cursor: FindCursor<{ record: string }>, limit = -1): Promise<T[]> {
  if (limit === 0) return [];
  const docs = await (limit > 0 ? cursor.limit(limit) : cursor).toArray();
  return docs.map((doc) => decodeRecord<T>(doc.record));
}
