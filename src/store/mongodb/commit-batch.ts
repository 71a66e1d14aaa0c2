/**
 * The commit of the MongoDB store: a batch of requests applied in one multi-document transaction,
 * each at its own offset and by exactly the rules of the SQLite adapter. Within the transaction a
 * request sees the writes of the requests before it, so a batch behaves like the same requests
 * committed one after the other; if the transaction fails, none of them is applied.
 */
import type { ClientSession, MongoClient } from "mongodb";
import { isDuplicate } from "../../ledger/deduplication.js";
import type { CommitRequest, CommitResult, Conflict, Deduplication, TransactionCommit } from "../../ledger/store-port.js";
import type { Collections } from "./collections.js";
import { completionDoc, contractDoc, transactionDoc } from "./documents.js";
import { allocateOffsets } from "./offsets.js";
import { inTransaction } from "./transaction.js";

/** The collections as seen by one transaction. */
interface Tx {
  readonly cols: Collections;
  readonly session: ClientSession;
}

export function commitBatch(client: MongoClient, cols: Collections, requests: readonly CommitRequest[]): Promise<CommitResult[]> {
  return inTransaction(client, async (session) => {
    const tx: Tx = { cols, session };
    const first = await allocateOffsets(cols.meta, session, requests.length);
    const results: CommitResult[] = [];
    for (const [i, request] of requests.entries()) results.push(await apply(tx, request, first + BigInt(i)));
    return results;
  });
}

async function apply(tx: Tx, request: CommitRequest, offset: bigint): Promise<CommitResult> {
  if (request.kind === "rejection") {
    await tx.cols.completions.insertOne(completionDoc({ ...request.completion, offset }), { session: tx.session });
    return { kind: "rejected", offset };
  }
  const conflict = await findConflict(tx, request);
  if (conflict) {
    await tx.cols.completions.insertOne(completionDoc({ ...request.onConflict(conflict), offset }), { session: tx.session });
    return { kind: "rejected", offset, conflict };
  }
  await write(tx, request, offset);
  return { kind: "committed", offset };
}

/** Archives, creates, the transaction, its completion and its dedup entry. */
async function write(tx: Tx, request: TransactionCommit, offset: bigint): Promise<void> {
  const { cols, session } = tx;
  if (request.archives.length > 0) {
    // Conditional on still being active, so a contract keeps the offset of its one archival.
    await cols.contracts.updateMany(
      { _id: { $in: request.archives }, archivedOffset: null },
      { $set: { archivedOffset: offset } },
      { session },
    );
  }
  // After the archives: a create may reuse the key of a contract archived just above.
  if (request.creates.length > 0) {
    await cols.contracts.insertMany(request.creates.map((c) => contractDoc(c, offset)), { session });
  }
  await cols.transactions.insertOne(transactionDoc({ ...request.transaction, offset }), { session });
  await cols.completions.insertOne(completionDoc({ ...request.completion, offset }), { session });
  if (request.dedup) {
    await cols.dedup.updateOne(
      { _id: request.dedup.changeKey },
      { $set: { offset, recordTime: request.completion.recordTime } },
      { upsert: true, session },
    );
  }
}

/** The first reason the request cannot commit, checked in the SQLite adapter's order. */
async function findConflict(tx: Tx, request: TransactionCommit): Promise<Conflict | undefined> {
  return (
    (await duplicateCommand(tx, request.dedup)) ??
    (await duplicateUpdateId(tx, request.transaction.updateId)) ??
    (await inactiveInputs(tx, request)) ??
    (await duplicateKey(tx, request))
  );
}

/** Update ids are unique; only an externally signed one (fixed by its parties) can come twice. */
async function duplicateUpdateId(tx: Tx, updateId: string): Promise<Conflict | undefined> {
  const prev = await tx.cols.transactions.findOne({ updateId }, { session: tx.session, projection: { _id: 1 } });
  return prev ? { kind: "duplicateCommand", existingOffset: prev._id } : undefined;
}

async function duplicateCommand(tx: Tx, dedup: Deduplication | undefined): Promise<Conflict | undefined> {
  if (!dedup) return undefined;
  const prev = await tx.cols.dedup.findOne({ _id: dedup.changeKey }, { session: tx.session });
  if (!prev) return undefined;
  return isDuplicate(prev, dedup) ? { kind: "duplicateCommand", existingOffset: prev.offset } : undefined;
}

async function inactiveInputs(tx: Tx, request: TransactionCommit): Promise<Conflict | undefined> {
  if (request.inputs.length === 0) return undefined;
  const active = await tx.cols.contracts
    .find({ _id: { $in: request.inputs }, archivedOffset: null }, { session: tx.session, projection: { _id: 1 } })
    .toArray();
  const activeIds = new Set(active.map((c) => c._id));
  const inactive = request.inputs.filter((cid) => !activeIds.has(cid));
  return inactive.length > 0 ? { kind: "inactive", contractIds: inactive } : undefined;
}

async function duplicateKey(tx: Tx, request: TransactionCommit): Promise<Conflict | undefined> {
  // Empty key hashes count as "no key", as in the SQLite adapter.
  const keyHashes = request.creates.flatMap((c) => (c.keyHash ? [c.keyHash] : []));
  if (keyHashes.length === 0) return undefined;
  const holders = await tx.cols.contracts
    .find({ keyHash: { $in: keyHashes }, archivedOffset: null }, { session: tx.session, projection: { _id: 1, keyHash: 1 } })
    .toArray();
  const holderOf = new Map(holders.map((c) => [c.keyHash, c._id]));
  const archived = new Set(request.archives);
  for (const keyHash of keyHashes) {
    const holder = holderOf.get(keyHash);
    // A key freed by an archive in this same transaction may be reused.
    if (holder !== undefined && !archived.has(holder)) return { kind: "duplicateKey", keyHash };
  }
  return undefined;
}
