/**
 * What a failed `commitTransaction` says about the transaction, and how often to ask again.
 *
 * The transactions spec and the convenient-API spec (`withTransaction`) define the labels:
 * - `TransientTransactionError`: the transaction did not commit (the server aborted it, e.g.
 *   `NoSuchTransaction` after an election); running it again from the start is safe.
 * - `UnknownTransactionCommitResult`: it may or may not have committed (network error, election,
 *   write concern timeout); `commitTransaction` may be sent again and answers for the same
 *   transaction, under a majority write concern so that a retry cannot apply it twice. Not after
 *   `MaxTimeMSExpired`, which the spec excludes from commit retries.
 * Anything else raised by the commit itself (a write concern the set cannot satisfy, a lifetime
 * limit hit mid-commit) leaves the outcome unknown as well, with nothing to retry: the server may
 * have applied the transaction locally. Only a transient error proves it did not land.
 */
import { MongoError, MongoErrorLabel, MongoServerError } from "mongodb";
import { CommitOutcomeUnknown } from "../../ledger/store-port.js";

/**
 * Attempts of `commitTransaction` for one transaction, the first included. Each waits at most the
 * commit's `wtimeout` (or the driver's server selection timeout during an election), so an
 * unanswerable commit holds the batch for about three of those, not the 120 s `withTransaction`
 * would spend.
 */
export const MAX_COMMIT_ATTEMPTS = 3;

/** What to do after `commitTransaction` failed. */
export type CommitErrorAction =
  /** Not committed: let `withTransaction` run the transaction again. */
  | "rerun-transaction"
  /** May have committed: send `commitTransaction` again. */
  | "retry-commit"
  /** May have committed and no retry left (or none allowed): the outcome is unknown. */
  | "outcome-unknown";

const MAX_TIME_MS_EXPIRED = 50;

/**
 * The unknown-result label is looked at first, as in the spec's `withTransaction`: an error that
 * carried both labels is never taken as proof that the transaction did not land.
 */
export function afterCommitError(error: unknown, attempt: number, maxAttempts = MAX_COMMIT_ATTEMPTS): CommitErrorAction {
  if (!(error instanceof MongoError)) return "outcome-unknown";
  if (error.hasErrorLabel(MongoErrorLabel.UnknownTransactionCommitResult)) {
    return !isMaxTimeMSExpired(error) && attempt < maxAttempts ? "retry-commit" : "outcome-unknown";
  }
  if (error.hasErrorLabel(MongoErrorLabel.TransientTransactionError)) return "rerun-transaction";
  return "outcome-unknown";
}

/** `MaxTimeMSExpired` as a command error or inside a write concern error, as the spec describes both. */
function isMaxTimeMSExpired(error: MongoError): boolean {
  if (!(error instanceof MongoServerError)) return false;
  return error.code === MAX_TIME_MS_EXPIRED || error.writeConcernError?.code === MAX_TIME_MS_EXPIRED;
}

export type CommitAttempts =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: unknown; readonly outcomeUnknown: boolean; readonly attempts: number };

/**
 * Sends `commit` until it succeeds, proves the transaction did not land, or runs out of attempts.
 * `outcomeUnknown` is false only for an error after which the transaction is known not committed.
 */
export async function commitWithRetry(commit: () => Promise<void>, maxAttempts = MAX_COMMIT_ATTEMPTS): Promise<CommitAttempts> {
  for (let attempt = 1; ; attempt++) {
    try {
      await commit();
      return { ok: true };
    } catch (error) {
      const action = afterCommitError(error, attempt, maxAttempts);
      if (action !== "retry-commit") return { ok: false, error, outcomeUnknown: action === "outcome-unknown", attempts: attempt };
    }
  }
}

/**
 * A commit that may or may not have been applied. Its requests must be answered neither as
 * committed (it may not have landed) nor as rejected (it may have). After a ledger commit ends so,
 * nothing more is committed on top of a state this instance no longer knows: the commit pipeline
 * stops (group-commit.ts), as the SQLite store does after a failed fsync. If it landed, its
 * completions reach the streams like any other commit (a command submitted again is then a
 * duplicate); if not, nothing of it exists.
 */
export class CommitOutcomeUnknownError extends CommitOutcomeUnknown {
  constructor(cause: unknown, readonly attempts: number) {
    super(
      `MongoDB transaction commit has an unknown outcome after ${attempts} attempt(s) (${describeMongoError(cause)}): ` +
        "it may or may not have been applied (a ledger commit that landed shows on the completion stream)",
      { cause },
    );
    this.name = "CommitOutcomeUnknownError";
  }
}

/** A driver error as a log line: the server's code name when it has one. */
export function describeMongoError(error: unknown): string {
  if (error instanceof MongoServerError) return `${error.codeName ?? error.code ?? error.name}: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
