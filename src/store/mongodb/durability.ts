/**
 * The read and write guarantees of every MongoDB operation of the store. They are set on the
 * database handle and on each transaction, not on the client, so that nothing in the connection
 * string (`w=1`, `journal=false`, `readConcernLevel=local`, ...) can weaken them.
 */
import { ReadConcern, ReadPreference, WriteConcern } from "mongodb";
import type { DbOptions, TransactionOptions } from "mongodb";

/** Acknowledged means durable: applied on a majority of members and in their on-disk journals. */
const DURABLE = new WriteConcern("majority", undefined, true);

export const DB_OPTIONS: DbOptions = {
  writeConcern: DURABLE,
  // Only majority-committed data, which no failover can roll back: a reader never sees an offset
  // that could later disappear.
  readConcern: new ReadConcern("majority"),
  // The primary is where commits run, so reads there see every acknowledged commit.
  readPreference: ReadPreference.primary,
  // int64 values (offsets, times) are returned as bigint instead of lossy numbers or Longs.
  useBigInt64: true,
};

export const TRANSACTION_OPTIONS: TransactionOptions = {
  // One snapshot for every read of the transaction (across shards too), majority-committed once
  // the transaction commits with a majority write concern.
  readConcern: new ReadConcern("snapshot"),
  writeConcern: DURABLE,
  // Transactions must read from the primary.
  readPreference: ReadPreference.primary,
};
