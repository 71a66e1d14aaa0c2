/**
 * Every committed transaction, once and in offset order, to the node's own in-process readers
 * (indexes, automation) — without reading back what this process just wrote.
 *
 * The ledger reports the outcome of each offset it produced (a transaction, or a rejection's
 * completion). Offsets it did not produce (another instance writing to a shared store) show up
 * as gaps below the store's ledger end; those are read from the store. A gap is only read once
 * the store has announced its end and the outcomes of that commit have been reported (they are
 * reported in the microtasks that resolve the commit, before the timer the check waits for).
 */
import type { LedgerStore } from "./store-port.js";
import type { TransactionRecord } from "./records.js";

export type FeedListener = (transaction: TransactionRecord) => void;

const GAP_READ_LIMIT = 1000;

export class TransactionFeed {
  /** Offsets up to here were delivered. */
  private delivered: bigint;
  /** Outcomes reported out of order: a transaction, or null for an offset without one. */
  private readonly early = new Map<bigint, TransactionRecord | null>();
  private readonly listeners = new Set<FeedListener>();
  private storeEnd = 0n;
  private gapCheck?: NodeJS.Immediate;
  private reading?: Promise<void>;

  private constructor(
    private readonly store: LedgerStore,
    start: bigint,
    private readonly onError: (error: unknown) => void,
  ) {
    this.delivered = start;
    this.storeEnd = start;
    store.onLedgerEnd((end) => this.ledgerEndMoved(end));
  }

  /** A feed that delivers what is committed after the store's current end. */
  static async open(store: LedgerStore, onError: (error: unknown) => void = () => undefined): Promise<TransactionFeed> {
    return new TransactionFeed(store, await store.ledgerEnd(), onError);
  }

  /** The last offset delivered to listeners: a snapshot at this offset plus the feed is complete. */
  get position(): bigint {
    return this.delivered;
  }

  /** Listens from the next delivery on; returns the unsubscribe function. */
  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The ledger's report of an offset it committed (`null`: a rejection, no transaction). */
  reported(offset: bigint, transaction: TransactionRecord | null): void {
    if (offset <= this.delivered) return;
    this.early.set(offset, transaction);
    this.deliverContiguous();
  }

  /**
   * Resolves once everything the store has committed so far was delivered: a reader that waits
   * for it sees its caller's own just-returned submission even when a lower offset of the same
   * commit batch (a rejection still being reported) holds delivery back. Usually one comparison.
   */
  async caughtUp(): Promise<void> {
    this.storeEnd = await this.store.ledgerEnd();
    while (this.delivered < this.storeEnd) await this.readGap();
  }

  private deliverContiguous(): void {
    for (;;) {
      const next = this.delivered + 1n;
      if (!this.early.has(next)) return;
      const tx = this.early.get(next)!;
      this.early.delete(next);
      this.delivered = next;
      if (tx) this.deliver(tx);
    }
  }

  private deliver(tx: TransactionRecord): void {
    for (const listener of this.listeners) {
      try {
        listener(tx);
      } catch (e) {
        // One failing reader must not keep the others (or the ledger) from going on.
        this.onError(e);
      }
    }
  }

  private ledgerEndMoved(end: bigint): void {
    if (end > this.storeEnd) this.storeEnd = end;
    this.gapCheck ??= setImmediate(() => {
      this.gapCheck = undefined;
      if (this.delivered < this.storeEnd) void this.readGap().catch(this.onError);
    });
  }

  /** Reads the offsets the ledger did not report, up to the store's end, and delivers them. */
  private readGap(): Promise<void> {
    this.reading ??= (async () => {
      try {
        while (this.delivered < this.storeEnd) {
          const rows = await this.store.transactions(this.delivered, this.storeEnd, GAP_READ_LIMIT);
          const upTo = rows.length === GAP_READ_LIMIT ? rows[rows.length - 1].offset : this.storeEnd;
          // What the store holds wins over nothing; offsets without a transaction were rejections.
          for (const tx of rows) if (tx.offset > this.delivered && !this.early.get(tx.offset)) this.early.set(tx.offset, tx);
          for (let o = this.delivered + 1n; o <= upTo; o++) if (!this.early.has(o)) this.early.set(o, null);
          this.deliverContiguous();
        }
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
