/**
 * The read and write guarantees of every MongoDB operation of the store. They are set on the
 * database handle and on each transaction, not on the client, so that nothing in the connection
 * string (`w=1`, `journal=false`, `readConcernLevel=local`, ...) can weaken them. The one option
 * taken from it is `wtimeoutMS`, which bounds how long a write waits and weakens nothing: a write
 * whose write concern timed out is not acknowledged.
 */
import { ReadConcern, ReadPreference, WriteConcern } from "mongodb";
import type { DbOptions, TransactionOptions } from "mongodb";

/**
 * How long a write waits for a majority of journals when nothing else is configured. Without a
 * bound, a replica set that lost the members it needs for a majority (a PSA set with its secondary
 * down) keeps every write waiting while reads still answer. 10 s is the bound the transactions
 * spec has drivers put on a retried `commitTransaction` ("Majority write concern is used when
 * retrying commitTransaction"), far above a healthy set's replication lag.
 */
export const DEFAULT_COMMIT_TIMEOUT_MS = 10_000;

/**
 * Acknowledged means durable: applied on a majority of members and in their on-disk journals,
 * within `timeoutMs`. The manual (write concern, `wtimeout`): a write that times out "return[s]
 * with an error ... even if the required write concern will eventually succeed", and MongoDB "does
 * not undo successful data modifications": a timed-out write may still land, so transaction.ts
 * treats a commit so as an unknown outcome, and write-outcome.ts a single write, never as a
 * rejection.
 */
export function durableWriteConcern(timeoutMs: number): WriteConcern {
  return new WriteConcern("majority", timeoutMs, true);
}

/**
 * The database handle's options: every write outside a transaction (parties, users, settings,
 * packages, and the collections and indexes made at start) inherits the write concern; operations
 * inside a transaction send none, the commit carries the transaction's.
 */
export function dbOptions(timeoutMs: number): DbOptions {
  return {
    writeConcern: durableWriteConcern(timeoutMs),
    // Only majority-committed data, which no failover can roll back: a reader never sees an offset
    // that could later disappear. Reads run in causally consistent sessions (causal-clock.ts), so
    // they also see every write this instance has had acknowledged.
    readConcern: new ReadConcern("majority"),
    // The primary is where commits run, so reads there see every acknowledged commit once the
    // session says after which cluster time they must read.
    readPreference: ReadPreference.primary,
    // int64 values (offsets, times) are returned as bigint instead of lossy numbers or Longs.
    useBigInt64: true,
  };
}

export function transactionOptions(timeoutMs: number): TransactionOptions {
  return {
    // One snapshot for every read of the transaction (across shards too), majority-committed once
    // the transaction commits with a majority write concern.
    readConcern: new ReadConcern("snapshot"),
    writeConcern: durableWriteConcern(timeoutMs),
    // Transactions must read from the primary.
    readPreference: ReadPreference.primary,
  };
}

/**
 * The write timeout of commits and of every other write: the store's option if given, else the connection string's `wtimeoutMS`,
 * else the default. Zero means "wait forever" to the server, which is what the bound is for, so a
 * zero (or negative, or non-finite) value counts as not given.
 */
export function commitTimeoutMs(option: number | undefined, fromUri: number | undefined): number {
  for (const value of [option, fromUri]) {
    if (value !== undefined && Number.isFinite(value) && value > 0) return Math.ceil(value);
  }
  return DEFAULT_COMMIT_TIMEOUT_MS;
}
