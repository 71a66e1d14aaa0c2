/**
 * What the stream hubs (completion-hub.ts, update-hub.ts) share: a watch per open stream that a
 * commit marks only when it may concern the stream, and the hub's position on the feed. A stream
 * that is not marked knows there is nothing for it up to the hub's position and sleeps; a shared
 * timer wakes every stream every `checkpointMs` so one behind the end can say so with an offset
 * checkpoint, without reading the store.
 */
import type { CompletionRecord, TransactionRecord } from "./records.js";
import type { TransactionFeed } from "./transaction-feed.js";

export interface StreamWatch {
  /** Set when something up to the hub's position may be for this stream; the stream clears it before reading. */
  dirty: boolean;
  /** Resolves when the stream should look again (marked, checkpoint due, or closed). */
  next(): Promise<void>;
  close(): void;
}

/** The hub side of a stream's watch: a stream reads the store only after a `mark`. */
export class Watch<K> implements StreamWatch {
  dirty = true;
  private closed = false;
  private waiter: (() => void) | undefined;

  constructor(
    /** What the hub indexes the watch by (a user, a set of parties). */
    readonly key: K,
    private readonly onClose: (w: Watch<K>) => void,
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

/** A hub's position on the feed and its open watches; subclasses decide which watches a commit marks. */
export abstract class WatchHub<K> {
  private position: bigint;
  private positionRecordTime: bigint | undefined;
  protected readonly all = new Set<Watch<K>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    feed: TransactionFeed,
    private readonly checkpointMs: number,
  ) {
    this.position = feed.position;
    // The feed calls transaction listeners before offset listeners, for one offset at a time:
    // a watch is marked before the position that covers its transaction is published.
    feed.subscribe((tx) => this.onTransaction(tx));
    feed.subscribeOffsets((offset, completion) => {
      this.onOffset(offset, completion);
      this.position = offset;
      this.positionRecordTime = completion?.recordTime;
    });
  }

  /** Every offset up to here was delivered: streams may read the store up to it. */
  get end(): bigint {
    return this.position;
  }

  /** Record time of the completion at `end`, when this process made it. */
  get endRecordTime(): bigint | undefined {
    return this.positionRecordTime;
  }

  /** Streams watching now. */
  get watching(): number {
    return this.all.size;
  }

  protected addWatch(key: K): Watch<K> {
    const w = new Watch(key, (x) => {
      this.all.delete(x);
      this.removed(x);
      if (this.all.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    });
    this.all.add(w);
    this.timer ??= setInterval(() => this.tick(), this.checkpointMs).unref();
    return w;
  }

  /** Offsets another instance committed (the feed read them from the store) may concern anyone. */
  protected markAll(): void {
    for (const w of this.all) w.mark();
  }

  protected abstract removed(w: Watch<K>): void;
  protected abstract onTransaction(tx: TransactionRecord): void;
  protected abstract onOffset(offset: bigint, completion: CompletionRecord | undefined): void;

  /** Wakes the streams behind the end: each sends one checkpoint per tick at most. */
  private tick(): void {
    for (const w of this.all) w.wake();
  }
}
