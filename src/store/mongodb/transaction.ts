/** Multi-document transactions, run the way the driver documents for `withTransaction`. */
import type { ClientSession, MongoClient } from "mongodb";
import { TRANSACTION_OPTIONS } from "./durability.js";

/**
 * Runs `body` in a transaction on a fresh session and returns its result once committed.
 * `withTransaction` reruns `body` from the start after a TransientTransactionError (a write
 * conflict, a failover) and retries the commit after an UnknownTransactionCommitResult, for up to
 * 120 s; so `body` must pass `session` to every operation, await them one at a time, let their
 * errors propagate, and change nothing outside the database.
 */
export function inTransaction<T>(client: MongoClient, body: (session: ClientSession) => Promise<T>): Promise<T> {
  return client.withSession((session) => session.withTransaction(body, TRANSACTION_OPTIONS));
}
