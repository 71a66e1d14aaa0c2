/**
 * Fan-out of completions to the streams that follow them, at no cost per commit for a stream the
 * commit does not concern. One listener on the transaction feed indexes the open streams by user:
 * a completion marks (and wakes) only the streams of its user whose parties acted in it. Streams
 * that nothing concerns sleep; a shared timer wakes those behind the ledger end every
 * `checkpointMs` so they can say so with an offset checkpoint, without reading the store.
 *
 * Offsets committed by another instance (the feed fills them from the store, completion unknown)
 * mark every stream: it must look. The hub's position is the feed's: every offset up to it has
 * been delivered, so a stream that is not marked knows there is nothing for it up to there.
 */
import type { CompletionRecord } from "./records.js";
import type { TransactionFeed } from "./transaction-feed.js";

export interface CompletionWatch {
  /** Set when something up to the hub's position may be for this stream; the stream clears it before reading. */
  dirty: boolean;
  /** Resolves when the stream should look again (marked, checkpoint due, or closed). */
  next(): Promise<void>;
  close(): void;
}

export class CompletionHub {
  private position: bigint;
  private positionRecordTime: bigint | undefined;
  private readonly byUser = new Map<string, Set<Watch>>();
  private readonly all = new Set<Watch>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    feed: TransactionFeed,
    private readonly checkpointMs: number,
  ) {
    this.position = feed.position;
    feed.subscribeOffsets((offset, completion) => this.delivered(offset, completion));
  }

  /** Every offset up to here was delivered: streams may read the store up to it. */
  get end(): bigint {
    return this.position;
  }

  /** Streams following completions now. */
  get watching(): number {
    return this.all.size;
  }

  /** Record time of the completion at `end`, when this process made it. */
  get endRecordTime(): bigint | undefined {
    return this.positionRecordTime;
  }

  /** Follows completions of `userId` that any of `parties` acted in; starts marked (it must catch up). */
  watch(userId: string, parties: ReadonlySet<string>): CompletionWatch {
    const w = new Watch(userId, parties, (x) => this.unwatch(x));
    let users = this.byUser.get(userId);
    if (!users) this.byUser.set(userId, (users = new Set()));
    users.add(w);
    this.all.add(w);
    this.timer ??= setInterval(() => this.tick(), this.checkpointMs).unref();
    return w;
  }

  private unwatch(w: Watch): void {
    this.all.delete(w);
    const users = this.byUser.get(w.userId);
    users?.delete(w);
    if (users?.size === 0) this.byUser.delete(w.userId);
    if (this.all.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private delivered(offset: bigint, completion: CompletionRecord | undefined): void {
    this.position = offset;
    this.positionRecordTime = completion?.recordTime;
    if (!completion) {
      for (const w of this.all) w.mark();
      return;
    }
    const users = this.byUser.get(completion.userId);
    if (!users) return;
    for (const w of users) if (completion.actAs.some((p) => w.parties.has(p))) w.mark();
  }

  /** Wakes the streams behind the end: each sends one checkpoint per tick at most. */
  private tick(): void {
    for (const w of this.all) w.wake();
  }
}

class Watch implements CompletionWatch {
  dirty = true;
  private closed = false;
  private waiter: (() => void) | undefined;

  constructor(
    readonly userId: string,
    readonly parties: ReadonlySet<string>,
    private readonly onClose: (w: Watch) => void,
  ) {}

  mark(): void {
    this.dirty = true;
    this.wake();
  }

  wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  next(): Promise<void> {
    if (this.dirty || this.closed) return Promise.resolve();
    return new Promise((resolve) => (this.waiter = resolve));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
    this.wake();
  }
}
