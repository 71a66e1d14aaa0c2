/**
 * Read-your-writes across a failover. A majority read on the primary answers from the primary's
 * majority commit point, and right after an election that point can lag behind writes a majority
 * has already acknowledged (SERVER-53813, whose stated workaround is a causally consistent
 * session): a range read up to a ledger end this instance announced could then return fewer rows
 * than that end promises, and a stream would skip them for good.
 *
 * So every operation of the store runs in a causally consistent session whose operation time is
 * first advanced to the latest time this instance knows committed: its own acknowledged writes and
 * the commits the ledger-end tail saw. The driver then sends `readConcern.afterClusterTime` with
 * each read, and the server answers only from a majority snapshot at or after it ("Causal
 * Consistency and Read and Write Concerns": majority reads and majority writes give read-own-writes
 * and monotonic reads). Cluster and operation time are copied as the manual and the driver's
 * `advanceClusterTime`/`advanceOperationTime` describe for carrying causality between sessions.
 */
import type { ClientSession, ClusterTime, MongoClient, Timestamp } from "mongodb";
import { extend } from "../../util/extend.js";

/** What a session carries of causality, and what a later session is advanced to. */
export interface CausalTimes {
  readonly operationTime?: Timestamp;
  readonly clusterTime?: ClusterTime;
}

export class CausalClock {
  private times: CausalTimes = {};

  /** The latest times known; `{}` until something was acknowledged or seen. */
  get now(): CausalTimes {
    return this.times;
  }

  /** Takes in the times of an acknowledged operation (or a session that ran only such ones). */
  observe(times: CausalTimes): void {
    this.times = latest(this.times, times);
  }

  /**
   * Runs `fn` in a causally consistent session that starts after everything the clock knows, and
   * moves the clock to where the session got, if `fn` succeeded. A failed operation moves nothing:
   * the time of a write that is not acknowledged (a commit whose write concern timed out) may
   * never become majority-committed, and every later read would wait for it.
   */
  run<T>(client: MongoClient, fn: (session: ClientSession) => Promise<T>): Promise<T> {
    return client.withSession({ causalConsistency: true }, async (session) => {
      advance(session, this.times);
      const result = await fn(session);
      this.observe({ operationTime: session.operationTime, clusterTime: session.clusterTime });
      return result;
    });
  }
}

/** The later of each time. Timestamps order as (seconds, increment), which `greaterThan` compares. */
export function latest(a: CausalTimes, b: CausalTimes): CausalTimes {
  const operationTime = laterTimestamp(a.operationTime, b.operationTime);
  const clusterTime = laterClusterTime(a.clusterTime, b.clusterTime);
  return extend(operationTime === undefined ? {} : { operationTime }, clusterTime === undefined ? {} : { clusterTime });
}

export function laterTimestamp(a: Timestamp | undefined, b: Timestamp | undefined): Timestamp | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.greaterThan(a) ? b : a;
}

function laterClusterTime(a: ClusterTime | undefined, b: ClusterTime | undefined): ClusterTime | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.clusterTime.greaterThan(a.clusterTime) ? b : a;
}

/** The session-side half, apart for tests: what `run` does to a fresh session before `fn`. */
export function advance(session: Pick<ClientSession, "advanceClusterTime" | "advanceOperationTime">, times: CausalTimes): void {
  // The driver refuses a cluster time without its signature; the client gossips the highest one it
  // has seen on every command anyway, so only a signed one is worth handing over.
  if (times.clusterTime?.signature) session.advanceClusterTime(times.clusterTime);
  if (times.operationTime) session.advanceOperationTime(times.operationTime);
}

/** Runs one operation (or several, awaited in turn) in a session: `CausalClock.run` bound to a client. */
export type InSession = <T>(fn: (session: ClientSession) => Promise<T>) => Promise<T>;
