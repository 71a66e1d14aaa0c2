/**
 * What a failed `commitTransaction` means for the MongoDB store, by the labels of the transactions
 * spec, and the bounded retry of an unknown result. Errors are built the way the driver reports
 * them (a write concern timeout is a MongoWriteConcernError the driver labels
 * UnknownTransactionCommitResult); no server is needed.
 */
import { MongoError, MongoNetworkError, MongoServerError, MongoWriteConcernError } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  CommitOutcomeUnknownError,
  MAX_COMMIT_ATTEMPTS,
  afterCommitError,
  commitWithRetry,
} from "../../src/store/mongodb/commit-outcome.js";

const UNKNOWN = "UnknownTransactionCommitResult";
const TRANSIENT = "TransientTransactionError";

function labelled<E extends MongoError>(error: E, ...labels: string[]): E {
  for (const label of labels) error.addErrorLabel(label);
  return error;
}

const wtimeout = () =>
  labelled(
    new MongoWriteConcernError({
      ok: 1,
      writeConcernError: { code: 64, codeName: "WriteConcernTimeout", errmsg: "waiting for replication timed out", errInfo: { wtimeout: true } },
    }),
    UNKNOWN,
  );
const networkError = () => labelled(new MongoNetworkError("connection reset"), UNKNOWN);
const noSuchTransaction = () => new MongoServerError({ message: "Transaction 7 has been aborted", code: 251, codeName: "NoSuchTransaction", errorLabels: [TRANSIENT] });

describe("afterCommitError", () => {
  it("runs the transaction again after a TransientTransactionError (it did not commit)", () => {
    expect(afterCommitError(noSuchTransaction(), 1)).toBe("rerun-transaction");
    // Even on the last attempt: a transient error is proof, not a guess.
    expect(afterCommitError(noSuchTransaction(), MAX_COMMIT_ATTEMPTS)).toBe("rerun-transaction");
  });

  it("retries the commit after an UnknownTransactionCommitResult while attempts remain", () => {
    expect(afterCommitError(wtimeout(), 1)).toBe("retry-commit");
    expect(afterCommitError(networkError(), 2)).toBe("retry-commit");
    expect(afterCommitError(wtimeout(), 3)).toBe("outcome-unknown");
    expect(afterCommitError(wtimeout(), 1, 1)).toBe("outcome-unknown");
  });

  it("never takes an error labelled both ways as proof that the transaction did not land", () => {
    const both = () => labelled(new MongoError("ambiguous"), UNKNOWN, TRANSIENT);
    expect(afterCommitError(both(), 1)).toBe("retry-commit");
    expect(afterCommitError(both(), MAX_COMMIT_ATTEMPTS)).toBe("outcome-unknown");
  });

  it("does not retry MaxTimeMSExpired, as a command error or inside a write concern error", () => {
    const asCommandError = new MongoServerError({ message: "operation exceeded time limit", code: 50, codeName: "MaxTimeMSExpired", errorLabels: [UNKNOWN] });
    const asWriteConcernError = new MongoWriteConcernError({
      ok: 1,
      writeConcernError: { code: 50, codeName: "MaxTimeMSExpired", errmsg: "operation exceeded time limit" },
      errorLabels: [UNKNOWN],
    });
    expect(afterCommitError(asCommandError, 1)).toBe("outcome-unknown");
    expect(afterCommitError(asWriteConcernError, 1)).toBe("outcome-unknown");
  });

  it("counts any other commit error as an unknown outcome, not as a rejection", () => {
    // The driver does not label these UnknownTransactionCommitResult (retrying cannot help), yet
    // the server may have applied the transaction before finding the write concern unsatisfiable.
    const unsatisfiable = new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 100, codeName: "UnsatisfiableWriteConcern", errmsg: "Not enough data-bearing nodes" } });
    expect(afterCommitError(unsatisfiable, 1)).toBe("outcome-unknown");
    expect(afterCommitError(new MongoError("unlabelled"), 1)).toBe("outcome-unknown");
    expect(afterCommitError(new TypeError("not a driver error"), 1)).toBe("outcome-unknown");
    expect(afterCommitError("a string", 1)).toBe("outcome-unknown");
  });
});

/** A commit that fails with each given error in turn, then succeeds; counts its calls. */
function scriptedCommit(...failures: unknown[]) {
  let calls = 0;
  const commit = async () => {
    const failure = failures[calls++];
    if (failure !== undefined) throw failure;
  };
  return { commit, calls: () => calls };
}

describe("commitWithRetry", () => {
  it("resolves an unknown result by asking again", async () => {
    const c = scriptedCommit(wtimeout(), networkError());
    expect(await commitWithRetry(c.commit)).toEqual({ ok: true });
    expect(c.calls()).toBe(3);
  });

  it("gives up after MAX_COMMIT_ATTEMPTS with the outcome unknown and the last error", async () => {
    const last = wtimeout();
    const c = scriptedCommit(wtimeout(), wtimeout(), last, wtimeout());
    expect(await commitWithRetry(c.commit)).toEqual({ ok: false, error: last, outcomeUnknown: true, attempts: MAX_COMMIT_ATTEMPTS });
    expect(c.calls()).toBe(MAX_COMMIT_ATTEMPTS);
  });

  it("stops at a transient error, which proves the transaction did not land", async () => {
    const transient = noSuchTransaction();
    const c = scriptedCommit(networkError(), transient);
    expect(await commitWithRetry(c.commit)).toEqual({ ok: false, error: transient, outcomeUnknown: false, attempts: 2 });
    expect(c.calls()).toBe(2);
  });

  it("does not retry an error that allows no retry", async () => {
    const plain = new MongoError("unlabelled");
    const c = scriptedCommit(plain);
    expect(await commitWithRetry(c.commit)).toEqual({ ok: false, error: plain, outcomeUnknown: true, attempts: 1 });
    expect(c.calls()).toBe(1);
  });
});

describe("CommitOutcomeUnknownError", () => {
  it("says the outcome is unknown, why, and keeps the driver's error as its cause", () => {
    const cause = wtimeout();
    const error = new CommitOutcomeUnknownError(cause, 3);
    expect(error.name).toBe("CommitOutcomeUnknownError");
    expect(error.cause).toBe(cause);
    expect(error.attempts).toBe(3);
    expect(error.message).toBe(
      "MongoDB transaction commit has an unknown outcome after 3 attempt(s) (WriteConcernTimeout: waiting for replication timed out): " +
        "it may or may not have been applied (a ledger commit that landed shows on the completion stream)",
    );
  });
});
