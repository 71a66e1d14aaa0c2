/** The collections of the MongoDB store and their indexes, created when the store connects. */
import { MongoServerError } from "mongodb";
import type { Collection, Db, IndexDescription } from "mongodb";
import type {
  CompletionDoc,
  ContractDoc,
  CounterDoc,
  DedupDoc,
  PackageDoc,
  RecordDoc,
  SettingDoc,
  TransactionDoc,
} from "./documents.js";

export interface Collections {
  readonly contracts: Collection<ContractDoc>;
  readonly transactions: Collection<TransactionDoc>;
  readonly completions: Collection<CompletionDoc>;
  readonly dedup: Collection<DedupDoc>;
  readonly parties: Collection<RecordDoc>;
  readonly users: Collection<RecordDoc>;
  readonly settings: Collection<SettingDoc>;
  readonly packages: Collection<PackageDoc>;
  /** Counters of the store itself (the ledger end), apart from the settings of the ledger. */
  readonly meta: Collection<CounterDoc>;
}

/**
 * Active contracts only: archived ones stay for history but out of these indexes. A partial index
 * accepts `$eq: null` (null or missing) but not `$exists: false`; the queries say
 * `archivedOffset: null`, the same predicate, so the planner can use these indexes for them.
 */
const ACTIVE = { archivedOffset: { $eq: null } };

const CONTRACT_INDEXES: IndexDescription[] = [
  // A key is unique among active contracts. Commits check it before writing (and report the
  // conflict); the index makes a violation impossible rather than merely unexpected.
  { name: "active_key", key: { keyHash: 1 }, unique: true, partialFilterExpression: { keyHash: { $exists: true }, ...ACTIVE } },
  // The ACS in creation order: by stakeholder, by template, or all of it.
  { name: "active_by_party", key: { stakeholders: 1, createdOffset: 1, nodeId: 1 }, partialFilterExpression: ACTIVE },
  { name: "active_by_template", key: { templateId: 1, createdOffset: 1, nodeId: 1 }, partialFilterExpression: ACTIVE },
  // One party's contracts of one template (a wallet's holdings; the DSO's few contracts of a
  // template, where by party alone would read the whole ledger).
  { name: "active_by_party_template", key: { stakeholders: 1, templateId: 1, createdOffset: 1, nodeId: 1 }, partialFilterExpression: ACTIVE },
  { name: "active_in_order", key: { createdOffset: 1, nodeId: 1 }, partialFilterExpression: ACTIVE },
  // The ACS at a past offset N adds the contracts archived after N. Archived ones only: a partial
  // index is used for a query whose predicate is a subset of its filter, as `$gt: N` (N >= 1) is.
  { name: "archived", key: { archivedOffset: 1 }, partialFilterExpression: { archivedOffset: { $gt: 0 } } },
];

const TRANSACTION_INDEXES: IndexDescription[] = [{ name: "update_id", key: { updateId: 1 }, unique: true }];

/** A user's completions in offset order (completion streams catching up). */
const COMPLETION_INDEXES: IndexDescription[] = [{ name: "user", key: { userId: 1, _id: 1 } }];

const NAMESPACE_EXISTS = 48;

/** Opens the collections, creating any that are missing and their indexes (both idempotent). */
export async function openCollections(db: Db): Promise<Collections> {
  const collections: Collections = {
    contracts: db.collection<ContractDoc>("contracts"),
    transactions: db.collection<TransactionDoc>("transactions"),
    completions: db.collection<CompletionDoc>("completions"),
    dedup: db.collection<DedupDoc>("dedup"),
    parties: db.collection<RecordDoc>("parties"),
    users: db.collection<RecordDoc>("users"),
    settings: db.collection<SettingDoc>("settings"),
    packages: db.collection<PackageDoc>("packages"),
    meta: db.collection<CounterDoc>("meta"),
  };
  // Created up front because commits write to them inside transactions, where creating a
  // collection is restricted (and impossible in a cross-shard transaction).
  for (const collection of Object.values(collections)) await ensureCollection(db, collection.collectionName);
  await collections.contracts.createIndexes(CONTRACT_INDEXES);
  await collections.transactions.createIndexes(TRANSACTION_INDEXES);
  await collections.completions.createIndexes(COMPLETION_INDEXES);
  return collections;
}

async function ensureCollection(db: Db, name: string): Promise<void> {
  try {
    await db.createCollection(name);
  } catch (error) {
    // Already there: created by an earlier start, or by another instance starting right now.
    if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
  }
}
