/**
 * Writes outside transactions (parties, users, settings, packages): what a failed one means, and
 * how this instance recognizes its own write when the request is retried.
 *
 * Each such write carries the durable write concern with its `wtimeout` (durability.ts). The
 * manual: a write whose write concern times out has still been applied on the primary and "MongoDB
 * does not undo successful data modifications"; it becomes durable once a majority is back, unless
 * a failover rolls it back. A network error leaves the same doubt (the driver's one automatic
 * retry included: the retryable-writes spec raises the retry's error). The caller gets Canton's
 * REQUEST_TIME_OUT (retryable, no definite answer), never an answer that reads as "not applied".
 *
 * Its retry must not read its own write as someone else's. The creates are upserts that only set
 * on insert, so the retry of a create that did land finds the record and would answer "already
 * exists"; a delete's retry would find nothing and answer "not found". So the store remembers what
 * each uncertain write would have left under its key, and a retry that finds exactly that took
 * effect. A create that finds an identical record with nothing remembered is still "already
 * exists", as Canton answers a second allocation of the same party: only a write this instance
 * could not confirm is recognized, through this instance, until it restarts. Upserts of settings
 * and packages are idempotent already (a retry finds what it would have written and answers alike).
 */
import { MongoNetworkError, MongoServerSelectionError, MongoWriteConcernError } from "mongodb";
import { errors, type LedgerError } from "../../ledger/errors.js";
import { describeMongoError } from "./commit-outcome.js";

/**
 * Whether a failed write outside a transaction may have been applied: its write concern failed
 * (applied, not confirmed; a timeout is one), or the connection failed around it. Anything else
 * (a duplicate key, a validation error) is the server's definite refusal.
 */
export function writeOutcomeUnknown(error: unknown): boolean {
  return error instanceof MongoWriteConcernError || error instanceof MongoNetworkError || error instanceof MongoServerSelectionError;
}

/** The answer to a write that may or may not have landed. */
export function writeTimedOut(what: string, cause: unknown): LedgerError {
  return errors.requestTimeOut(
    `The write of ${what} was not confirmed by a majority of the database (${describeMongoError(cause)}); it may or may not have been applied. Retry the request`,
    cause,
  );
}

/** What a write leaves under its key: a record's encoding, or `ABSENT` after a delete. */
export type WriteState = string | null;
export const ABSENT = null;

/**
 * The writes of this instance whose outcome is unknown, by key (collection and id), each with the
 * state it would have left. Bounded: past `max` the oldest are forgotten, and their retries answer
 * as without this memory.
 */
export class UncertainWrites {
  private readonly pending = new Map<string, WriteState>();

  constructor(private readonly max = 1_000) {}

  remember(key: string, state: WriteState): void {
    this.pending.delete(key);
    this.pending.set(key, state);
    if (this.pending.size > this.max) this.pending.delete(this.pending.keys().next().value!);
  }

  has(key: string): boolean {
    return this.pending.has(key);
  }

  /**
   * Ends the doubt about `key`, given the state a later write found there: true if that is what
   * the uncertain write would have left (it landed, or an identical write did), false otherwise.
   */
  settle(key: string, found: WriteState): boolean {
    const expected = this.pending.get(key);
    const ours = this.pending.has(key) && expected === found;
    this.pending.delete(key);
    return ours;
  }
}
