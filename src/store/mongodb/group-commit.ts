/**
 * Group commit: one transaction at a time per store instance, carrying every request queued
 * while the previous one was in flight. N concurrent commits then cost about one majority,
 * journaled write instead of N, and commits of the same instance never contend with each other
 * for the offset counter (which would abort and retry all but one of them, again and again).
 *
 * A batch whose commit has an unknown outcome stops the pipeline, as a failed fsync stops the
 * SQLite store: its requests get that error (neither committed nor rejected), every request
 * queued or submitted later is refused without being tried, and `failure` makes the readiness
 * probe fail, so the node is taken out of service instead of answering writes it cannot make. A
 * restart reads the ledger as it is, with or without that commit.
 */
import type { CommitRequest, CommitResult } from "../../ledger/store-port.js";
import type { CommitOutcome } from "./batch-outcomes.js";
import { CommitOutcomeUnknownError } from "./commit-outcome.js";

/**
 * An upper bound on the work of one transaction, far below the server's limits on transaction
 * size and lifetime (60 s by default).
 */
const MAX_BATCH = 64;

interface Pending {
  readonly request: CommitRequest;
  readonly resolve: (result: CommitResult) => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommit {
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;
  private stopped: Error | undefined;

  /**
   * @param commitBatch commits the requests atomically (those it does not refuse), returning one
   *   outcome per request in order; throws if the transaction failed as a whole.
   * @param committed called with the last offset of each batch that committed anything; must not throw.
   */
  constructor(
    private readonly commitBatch: (requests: readonly CommitRequest[]) => Promise<CommitOutcome[]>,
    private readonly committed: (lastOffset: bigint) => void,
  ) {}

  /** Why the pipeline stopped, once a commit's outcome was unknown. */
  get failure(): Error | undefined {
    return this.stopped;
  }

  submit(request: CommitRequest): Promise<CommitResult> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /** Settles once every request submitted so far has been answered. */
  async idle(): Promise<void> {
    await this.draining;
  }

  private async drain(): Promise<void> {
    // Let the requests submitted in this same turn of the event loop join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) await this.commitNext();
    this.draining = undefined;
  }

  /** Commits the next batch and answers its requests; a failed transaction rejects all of them. */
  private async commitNext(): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    if (this.stopped) {
      for (const p of batch) p.reject(this.stopped);
      return;
    }
    let outcomes: CommitOutcome[];
    try {
      outcomes = await this.commitBatch(batch.map((p) => p.request));
    } catch (error) {
      if (error instanceof CommitOutcomeUnknownError) this.stopped = stoppedBy(error);
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) p.resolve(outcome.result);
      else p.reject(outcome.error);
    });
    const last = lastOffset(outcomes);
    if (last !== undefined) this.committed(last);
  }
}

/** The highest offset the batch assigned, if it committed anything. */
export function lastOffset(outcomes: readonly CommitOutcome[]): bigint | undefined {
  let last: bigint | undefined;
  for (const o of outcomes) if (o.ok && (last === undefined || o.result.offset > last)) last = o.result.offset;
  return last;
}

/** What requests after the unknown commit get: they were never tried, which the message says. */
function stoppedBy(cause: CommitOutcomeUnknownError): Error {
  return new Error(`the MongoDB store accepts no more commits until restarted: ${cause.message}`, { cause });
}
