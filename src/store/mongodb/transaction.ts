/** Multi-document transactions, run the way the driver and the transactions specs document them. */
import type { ClientSession, MongoClient } from "mongodb";
import type { CausalClock } from "./causal-clock.js";
import { CommitOutcomeUnknownError, commitWithRetry } from "./commit-outcome.js";
import { transactionOptions } from "./durability.js";

export interface TransactionSettings {
  readonly client: MongoClient;
  /** Sessions start after everything this instance knows committed, and the commit moves it on. */
  readonly clock: CausalClock;
  /** The commit's `wtimeout`. */
  readonly commitTimeoutMs: number;
}

/**
 * Runs `body` in a transaction and returns its result once committed.
 *
 * `withTransaction` reruns `body` from the start after a TransientTransactionError (a write
 * conflict, a failover), for up to 120 s; so `body` must pass `session` to every operation, await
 * them one at a time, let their errors propagate, and change nothing outside the database.
 *
 * The commit is sent from inside the callback rather than left to `withTransaction`, whose own
 * commit loop retries an UnknownTransactionCommitResult for up to 120 s. The convenient-API spec
 * allows it: a callback that committed makes `withTransaction` return (step 8), and a commit error
 * it rethrows is handled as the spec says (7.2: transient, run it again; 7.3: unknown, propagate).
 * Here the commit is retried a bounded number of times (commit-outcome.ts), and a commit still
 * unresolved then fails with CommitOutcomeUnknownError, never with an error that reads as "not
 * applied". An error thrown by `body` means nothing was committed.
 */
export async function inTransaction<T>(settings: TransactionSettings, body: (session: ClientSession) => Promise<T>): Promise<T> {
  let unknown: CommitOutcomeUnknownError | undefined;
  try {
    return await settings.clock.run(settings.client, (session) =>
      session.withTransaction(async (s) => {
        const result = await body(s);
        const commit = await commitWithRetry(() => s.commitTransaction());
        if (!commit.ok) {
          if (commit.outcomeUnknown) unknown = new CommitOutcomeUnknownError(commit.error, commit.attempts);
          // Rethrown as is: `withTransaction` reruns the transaction after a transient one, and
          // stops on any other (a non-driver error would make it try to abort a committed one).
          throw commit.error;
        }
        return result;
      }, transactionOptions(settings.commitTimeoutMs)),
    );
  } catch (error) {
    // Whatever `withTransaction` made of it: once a commit's outcome is unknown, so is the call's.
    throw unknown ?? error;
  }
}
