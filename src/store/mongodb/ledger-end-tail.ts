/**
 * Follows the ledger end as every instance sharing the database moves it: a change stream on the
 * completions collection, where each offset gets exactly one document, inserted by the transaction
 * that assigns the offset, with the offset as its `_id`. Commits are serial (see offsets.ts), so
 * the offsets arrive in order, and a change stream reports only majority-committed writes.
 *
 * The driver resumes the stream by itself after resumable errors (network, failover). When the
 * stream fails anyway, the tail reopens it after the last resume token seen; when that token is
 * no good (its history has rolled off the oplog, or the resume fails outright), it opens a fresh
 * stream with a catch-up read of the ledger-end counter, so that no commit goes unreported.
 */
import { MongoServerError } from "mongodb";
import type { ChangeStream, ChangeStreamOptions, MongoClient, ResumeToken, Timestamp } from "mongodb";
import { setTimeout as sleep } from "node:timers/promises";
import type { Collections } from "./collections.js";
import type { CompletionDoc } from "./documents.js";
import { readLedgerEnd } from "./offsets.js";

/** What the pipeline leaves of a change event: the resume token and, for an insert, the offset and its time. */
type TailEvent = {
  _id: ResumeToken;
  /** Absent should the stream ever deliver something other than an insert (an invalidate). */
  documentKey?: { _id: bigint };
  /** The commit's time in the oplog: reads after it must see it (causal-clock.ts). */
  clusterTime?: Timestamp;
};

type TailStream = ChangeStream<CompletionDoc, TailEvent>;

/** Inserts only, and only their key and time: the completion itself is not needed to know the offset. */
const PIPELINE = [{ $match: { operationType: "insert" } }, { $project: { documentKey: 1, clusterTime: 1 } }];

/** Server errors after which a resume token is useless. */
const TOKEN_LOST = new Set(["ChangeStreamHistoryLost", "ChangeStreamFatalError", "InvalidResumeToken"]);

/** Pause between a failed stream and the next attempt, so an outage is not a busy loop. */
const RETRY_DELAY_MS = 1_000;

export class LedgerEndTail {
  private stopped = false;
  private stream: TailStream | undefined;
  private readonly stopping = new AbortController();
  private readonly running: Promise<void>;

  /**
   * Starts following at once; `onEnd` gets every offset seen (not necessarily increasing) with a
   * cluster time at or after its commit, when known (a change stream reports only majority-committed
   * writes), and must not throw.
   */
  constructor(
    private readonly client: MongoClient,
    private readonly cols: Collections,
    private readonly onEnd: (end: bigint, at: Timestamp | undefined) => void,
  ) {
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    // Ends the wait for the next event; `follow` then sees `stopped` and returns.
    await this.stream?.close().catch(ignore);
    await this.running;
  }

  private async run(): Promise<void> {
    let token: ResumeToken | undefined;
    while (!this.stopped) {
      token = await this.follow(token);
      if (!this.stopped) await sleep(RETRY_DELAY_MS, undefined, { signal: this.stopping.signal }).catch(ignore);
    }
  }

  /**
   * Follows one stream (resumed after `resumeAfter`, or fresh) until it fails or the tail stops.
   * Returns the token to resume the next stream after, or undefined to start the next one fresh.
   */
  private async follow(resumeAfter: ResumeToken | undefined): Promise<ResumeToken | undefined> {
    let token = resumeAfter;
    let started = false;
    let stream: TailStream | undefined;
    try {
      stream = resumeAfter === undefined ? await this.openFresh() : this.watch({ resumeAfter });
      this.stream = stream;
      while (!this.stopped) {
        // Waits up to the server's await time (1 s by default), then returns null on no news:
        // the resume token still advances (post-batch token), so an idle stream stays resumable.
        const event = await stream.tryNext();
        started = true;
        if (event?.documentKey) this.onEnd(event.documentKey._id, event.clusterTime);
        token = stream.resumeToken ?? token;
      }
      return token;
    } catch (error) {
      // A stream that failed before its first batch was most likely refused its token.
      return started && !tokenLost(error) ? token : undefined;
    } finally {
      this.stream = undefined;
      await stream?.close().catch(ignore);
    }
  }

  /**
   * Opens a stream without a resume token and reports the ledger end it starts from, leaving no
   * gap between the two: the stream starts at the cluster time T of a first majority read of the
   * counter, and a second read in the same causally consistent session is served from a majority
   * snapshot at or after T. Every commit is thus either at or after T (reported by the stream) or
   * before T (seen by the second read).
   */
  private openFresh(): Promise<TailStream> {
    return this.client.withSession({ causalConsistency: true }, async (session) => {
      await readLedgerEnd(this.cols.meta, session);
      const start = session.operationTime;
      const end = await readLedgerEnd(this.cols.meta, session);
      this.onEnd(end, session.operationTime);
      // The stream runs its aggregate only when first read, but from `start` whenever that is.
      return this.watch({ startAtOperationTime: start });
    });
  }

  private watch(start: ChangeStreamOptions): TailStream {
    return this.cols.completions.watch<CompletionDoc, TailEvent>(PIPELINE, start);
  }
}

function tokenLost(error: unknown): boolean {
  return error instanceof MongoServerError && error.codeName !== undefined && TOKEN_LOST.has(error.codeName);
}

/**
 * For failures that need no handling: closing a stream whose connection is already gone (nothing
 * is left to free), and the abort of a pause by `stop()`.
 */
function ignore(): void {}
