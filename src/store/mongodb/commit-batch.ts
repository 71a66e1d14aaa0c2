/**
 * The commit of the MongoDB store: a batch of requests applied in one multi-document transaction,
 * each at its own offset and by exactly the rules of the SQLite adapter. Within the transaction a
 * request sees the writes of the requests before it, so a batch behaves like the same requests
 * committed one after the other; if the transaction fails, none of them is applied.
 *
 * Before it, every request is encoded once and measured: one that would write a document over
 * MongoDB's size limit is refused alone and the others are committed without it.
 */
import type { ClientSession } from "mongodb";
import { isDuplicate } from "../../ledger/deduplication.js";
import type { CommitRequest, CommitResult, Conflict, Deduplication, TransactionCommit } from "../../ledger/store-port.js";
import type { CommitOutcome } from "./batch-outcomes.js";
import { mergeOutcomes, screenBatch } from "./batch-outcomes.js";
import type { Collections } from "./collections.js";
import { oversizedDocument } from "./document-size.js";
import { completionDocOf } from "./documents.js";
import { allocateOffsets } from "./offsets.js";
import type { PreparedRequest, PreparedTransaction } from "./prepared-request.js";
import { documentsAt, prepareRequest } from "./prepared-request.js";
import type { TransactionSettings } from "./transaction.js";
import { inTransaction } from "./transaction.js";

export interface CommitSettings extends TransactionSettings {
  readonly cols: Collections;
  /** The server's `maxBsonObjectSize`. */
  readonly maxDocumentBytes: number;
}

/** The collections as seen by one transaction. */
interface Tx {
  readonly cols: Collections;
  readonly session: ClientSession;
}

/**
 * One outcome per request, in order. Throws (rejecting the whole batch) only when the transaction
 * fails: then nothing of it was applied, or, with CommitOutcomeUnknownError, nobody knows.
 */
export async function commitBatch(settings: CommitSettings, requests: readonly CommitRequest[]): Promise<CommitOutcome[]> {
  const { accepted, refusals } = screenBatch(requests.map(prepareRequest), (p) => oversizedDocument(p, settings.maxDocumentBytes));
  if (accepted.length === 0) return mergeOutcomes(refusals, []);
  const results = await inTransaction(settings, async (session) => {
    const tx: Tx = { cols: settings.cols, session };
    const first = await allocateOffsets(tx.cols.meta, session, accepted.length);
    const out: CommitResult[] = [];
    for (const [i, prepared] of accepted.entries()) out.push(await apply(tx, prepared, first + BigInt(i)));
    return out;
  });
  return mergeOutcomes(refusals, results);
}

async function apply(tx: Tx, prepared: PreparedRequest, offset: bigint): Promise<CommitResult> {
  if (prepared.kind === "rejection") {
    await tx.cols.completions.insertOne(documentsAt(prepared, offset).completion, { session: tx.session });
    return { kind: "rejected", offset };
  }
  const request = prepared.request;
  const conflict = await findConflict(tx, request);
  if (conflict) {
    await tx.cols.completions.insertOne(completionDocOf(request.onConflict(conflict), offset), { session: tx.session });
    return { kind: "rejected", offset, conflict };
  }
  await write(tx, prepared, offset);
  return { kind: "committed", offset };
}

/** Archives, creates, the transaction, its completion and its dedup entry. */
async function write(tx: Tx, prepared: PreparedTransaction, offset: bigint): Promise<void> {
  const { cols, session } = tx;
  const { request } = prepared;
  const docs = documentsAt(prepared, offset);
  if (request.archives.length > 0) {
    // Conditional on still being active, so a contract keeps the offset of its one archival.
    await cols.contracts.updateMany(
      { _id: { $in: request.archives }, archivedOffset: null },
      { $set: { archivedOffset: offset } },
      { session },
    );
  }
  // After the archives: a create may reuse the key of a contract archived just above.
  if (docs.contracts.length > 0) await cols.contracts.insertMany([...docs.contracts], { session });
  if (docs.transaction) await cols.transactions.insertOne(docs.transaction, { session });
  await cols.completions.insertOne(docs.completion, { session });
  if (docs.dedup) {
    await cols.dedup.updateOne(
      { _id: docs.dedup._id },
      { $set: { offset: docs.dedup.offset, recordTime: docs.dedup.recordTime } },
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
