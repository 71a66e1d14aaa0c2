/**
 * Group commit: one transaction at a time per store instance, carrying every request queued
 * while the previous one was in flight. N concurrent commits then cost about one majority,
 * journaled write instead of N, and commits of the same instance never contend with each other
 * for the offset counter (which would abort and retry all but one of them, again and again).
 */
import type { CommitRequest, CommitResult } from "../../ledger/store-port.js";

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

  /**
   * @param commitBatch commits the requests atomically, returning one result per request in order.
   * @param committed called with the last offset of each committed batch; must not throw.
   */
  constructor(
    private readonly commitBatch: (requests: readonly CommitRequest[]) => Promise<CommitResult[]>,
    private readonly committed: (lastOffset: bigint) => void,
  ) {}

  submit(request: CommitRequest): Promise<CommitResult> {
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

  /** Commits the next batch and answers its requests; a failed batch rejects all of them. */
  private async commitNext(): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    let results: CommitResult[];
    try {
      results = await this.commitBatch(batch.map((p) => p.request));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i]));
    this.committed(results[results.length - 1].offset);
  }
}
