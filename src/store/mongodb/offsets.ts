/**
 * The ledger-end counter: one document in `meta` holding the last offset assigned. It is written
 * in the same transaction as the completions (and transactions) of the offsets it hands out, so it
 * always equals the highest offset stored.
 */
import type { ClientSession, Collection } from "mongodb";
import type { CounterDoc } from "./documents.js";

const LEDGER_END = "ledgerEnd";

/** The last offset assigned (0 when empty). */
export async function readLedgerEnd(meta: Collection<CounterDoc>, session?: ClientSession): Promise<bigint> {
  const doc = await meta.findOne({ _id: LEDGER_END }, { session });
  return doc?.value ?? 0n;
}

/**
 * Reserves the next `count` offsets inside the caller's transaction and returns the first.
 *
 * Every commit, from this instance or any other sharing the database, writes this one document,
 * so two concurrent commits always write-conflict on it: the later one is aborted with a
 * TransientTransactionError and `withTransaction` reruns it on the new state. Commits are thereby
 * serial: offsets are assigned in commit order, and whatever a commit read (input activeness,
 * keys, dedup entries) cannot have been changed by another commit before it lands. An aborted
 * transaction rolls its increment back, so offsets stay dense. Doing this first makes a losing
 * commit fail fast, before it reads anything else.
 */
export async function allocateOffsets(meta: Collection<CounterDoc>, session: ClientSession, count: number): Promise<bigint> {
  const before = await meta.findOneAndUpdate(
    { _id: LEDGER_END },
    { $inc: { value: BigInt(count) } },
    { upsert: true, returnDocument: "before", session },
  );
  return (before?.value ?? 0n) + 1n;
}
