/**
 * `inTransaction`'s handling of the commit, against a session double that follows the
 * convenient-API spec's steps for a callback that commits itself (rerun on a transient error,
 * return once committed, propagate anything else) and, like driver 7.8, tries to abort when the
 * callback throws something other than a driver error — which fails once the commit was sent.
 * What a real server answers is for the conformance suite (mongodb.test.ts).
 */
import { MongoError, MongoServerError, MongoTransactionError, MongoWriteConcernError, Timestamp } from "mongodb";
import type { ClientSession, MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";
import { CausalClock } from "../../src/store/mongodb/causal-clock.js";
import { CommitOutcomeUnknownError, MAX_COMMIT_ATTEMPTS } from "../../src/store/mongodb/commit-outcome.js";
import { inTransaction } from "../../src/store/mongodb/transaction.js";

const wtimeout = () => {
  const e = new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 64, codeName: "WriteConcernTimeout", errmsg: "waiting for replication timed out" } });
  e.addErrorLabel("UnknownTransactionCommitResult");
  return e;
};
const transient = () => new MongoServerError({ message: "aborted", code: 251, codeName: "NoSuchTransaction", errorLabels: ["TransientTransactionError"] });

interface Double {
  readonly client: MongoClient;
  readonly commits: () => number;
  readonly bodies: () => number;
  readonly options: () => unknown;
}

/** A client whose one session commits with each scripted failure in turn, then succeeds at `committedAt`. */
function double(commitFailures: unknown[], committedAt = new Timestamp({ t: 100, i: 1 })): Double {
  let commits = 0;
  let bodies = 0;
  let committed = false;
  let options: unknown;
  const session = {
    operationTime: undefined as Timestamp | undefined,
    clusterTime: undefined,
    advanceClusterTime() {},
    advanceOperationTime(t: Timestamp) {
      session.operationTime = t;
    },
    async commitTransaction() {
      committed = true; // the driver moves to "committed" whatever the outcome
      const failure = commitFailures[commits++];
      if (failure !== undefined) throw failure;
      session.operationTime = committedAt;
    },
    async withTransaction<T>(fn: (s: ClientSession) => Promise<T>, opts: unknown): Promise<T> {
      options = opts;
      for (;;) {
        committed = false;
        bodies++;
        try {
          return await fn(session as unknown as ClientSession);
        } catch (error) {
          if (!(error instanceof MongoError)) {
            if (committed) throw new MongoTransactionError("Cannot call abortTransaction after calling commitTransaction");
            throw error;
          }
          if (error.hasErrorLabel("TransientTransactionError")) continue;
          throw error;
        }
      }
    },
  };
  const client = { withSession: async (_o: unknown, fn: (s: ClientSession) => Promise<unknown>) => fn(session as unknown as ClientSession) };
  return { client: client as unknown as MongoClient, commits: () => commits, bodies: () => bodies, options: () => options };
}

const settings = (d: Double, clock = new CausalClock()) => ({ client: d.client, clock, commitTimeoutMs: 2_500 });

describe("inTransaction", () => {
  it("commits with a durable write concern bounded by the configured wtimeout", async () => {
    const d = double([]);
    expect(await inTransaction(settings(d), async () => "result")).toBe("result");
    expect(d.commits()).toBe(1);
    const options = d.options() as { writeConcern: { w: unknown; journal: unknown; wtimeoutMS: unknown }; readConcern: { level: unknown } };
    expect({ w: options.writeConcern.w, journal: options.writeConcern.journal, wtimeoutMS: options.writeConcern.wtimeoutMS }).toEqual({
      w: "majority",
      journal: true,
      wtimeoutMS: 2_500,
    });
    expect(options.readConcern.level).toBe("snapshot");
  });

  it("retries an unknown commit result and returns the body's result once it is resolved", async () => {
    const d = double([wtimeout(), wtimeout()]);
    expect(await inTransaction(settings(d), async () => 42)).toBe(42);
    expect({ commits: d.commits(), bodies: d.bodies() }).toEqual({ commits: 3, bodies: 1 });
  });

  it("fails with CommitOutcomeUnknownError when the commit stays unknown, after a bounded number of attempts", async () => {
    const last = wtimeout();
    const d = double([wtimeout(), wtimeout(), last, wtimeout()]);
    const error = await inTransaction(settings(d), async () => 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommitOutcomeUnknownError);
    expect((error as CommitOutcomeUnknownError).cause).toBe(last);
    expect((error as CommitOutcomeUnknownError).attempts).toBe(MAX_COMMIT_ATTEMPTS);
    expect({ commits: d.commits(), bodies: d.bodies() }).toEqual({ commits: MAX_COMMIT_ATTEMPTS, bodies: 1 });
  });

  it("reports an unknown outcome even when the commit error is not a driver error", async () => {
    // The driver would then try to abort the committed transaction and throw that failure instead.
    const d = double([new TypeError("socket gone")]);
    const error = await inTransaction(settings(d), async () => 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommitOutcomeUnknownError);
    expect((error as CommitOutcomeUnknownError).attempts).toBe(1);
  });

  it("runs the whole transaction again after a commit that proved it did not land", async () => {
    const d = double([transient()]);
    expect(await inTransaction(settings(d), async () => "again")).toBe("again");
    expect({ commits: d.commits(), bodies: d.bodies() }).toEqual({ commits: 2, bodies: 2 });
  });

  it("passes a failure of the body through as is, without committing", async () => {
    const d = double([]);
    const failure = new MongoServerError({ message: "E11000 duplicate key", code: 11000 });
    await expect(inTransaction(settings(d), async () => Promise.reject(failure))).rejects.toBe(failure);
    expect(d.commits()).toBe(0);
  });

  it("moves the clock to the commit's operation time only once committed", async () => {
    const clock = new CausalClock();
    const at = new Timestamp({ t: 500, i: 3 });
    await inTransaction(settings(double([], at), clock), async () => undefined);
    expect(clock.now.operationTime?.equals(at)).toBe(true);

    const unknown = new CausalClock();
    await inTransaction(settings(double([wtimeout(), wtimeout(), wtimeout()], at), unknown), async () => undefined).catch(() => undefined);
    expect(unknown.now).toEqual({});
  });
});
