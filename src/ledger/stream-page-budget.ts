/**
 * Bytes of store pages that streams hold at once, across the node. A stream reads the store a page
 * at a time (catch-up transactions, a snapshot's contracts) and keeps the page, decoded, until its
 * client has taken every row: a client that stops reading keeps its page for as long as it likes.
 * Each page is bounded, but not the pages together, and 200 paused streams of one user over
 * transactions of a few megabytes each held gigabytes (a hostile review, session 18).
 *
 * A stream asks to be admitted before each read, and its page then counts until the next read or
 * until the stream ends. Past the node's limit, or its owner's share of it, the read waits: the
 * client sees a slower stream, never an error, and a stream that waits holds no page, so waiting
 * streams cannot block each other. An owner holds at most an eighth of the budget, so the paused
 * streams of one user (or a few) leave room for everyone else's.
 *
 * An admitted read is counted at the page bound until its page is weighed: reads admitted together
 * cannot overshoot the limit by more than their estimate.
 */

export interface PageHold {
  /**
   * Resolves when the node and the owner have room for another page, at once when `signal` aborts.
   * The hold's previous page is done with: it no longer counts.
   */
  admit(signal: AbortSignal): Promise<void>;
  /** The page just read weighs `bytes` (it counts instead of the admission's estimate). */
  weigh(bytes: number): void;
  /** The hold's page is done with (idempotent); the hold may be admitted again. */
  release(): void;
}

export interface StreamPageLimits {
  /** Bytes of pages held at once across the node. */
  readonly maxBytes: number;
  /** Bytes of pages one owner's streams hold at once. */
  readonly maxBytesPerOwner: number;
  /** What an admitted read counts until its page is weighed: the bound of one page. */
  readonly pageBytes: number;
}

/**
 * Stored record text a stream reads at once (update pages, snapshot chunks). A page stays in memory
 * for as long as its reader stalls: 250 transactions of 1.2 MB each made every paused stream hold
 * ~300 MB, and 150 of them ran the node out of memory (a hostile review, session 18).
 */
export const STREAM_PAGE_BYTES = 1024 * 1024;

/** 256 MiB of stored records (their decoded form weighs a few times more), 32 MiB per user. */
export const STREAM_PAGE_LIMITS: StreamPageLimits = { maxBytes: 256 * 1024 * 1024, maxBytesPerOwner: 32 * 1024 * 1024, pageBytes: STREAM_PAGE_BYTES };

interface Waiter {
  readonly owner: string;
  readonly admit: () => void;
}

export class StreamPageBudget {
  private held = 0;
  private readonly heldBy = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(readonly limits: StreamPageLimits = STREAM_PAGE_LIMITS) {}

  /** Bytes counted now (weighed pages and admitted reads). */
  get heldBytes(): number {
    return this.held;
  }

  /** Streams waiting to be admitted. */
  get waitingStreams(): number {
    return this.waiting.length;
  }

  /** A stream's hold; `owner` is the user the stream reads for. */
  open(owner: string): PageHold {
    let mine = 0;
    const set = (bytes: number) => {
      this.count(owner, bytes - mine);
      mine = bytes;
    };
    return {
      admit: (signal) => {
        set(0);
        this.grant();
        if (signal.aborted) return Promise.resolve();
        if (this.waiting.length === 0 && this.fits(owner)) {
          set(this.limits.pageBytes);
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          const waiter: Waiter = {
            owner,
            admit: () => {
              signal.removeEventListener("abort", onAbort);
              set(this.limits.pageBytes);
              resolve();
            },
          };
          const onAbort = () => {
            const at = this.waiting.indexOf(waiter);
            if (at >= 0) this.waiting.splice(at, 1);
            resolve();
          };
          signal.addEventListener("abort", onAbort, { once: true });
          this.waiting.push(waiter);
          // Those ahead may all be owners at their share: this one need not wait behind them.
          this.grant();
        });
      },
      weigh: (bytes) => {
        set(bytes);
        this.grant();
      },
      release: () => {
        if (mine === 0) return;
        set(0);
        this.grant();
      },
    };
  }

  private fits(owner: string): boolean {
    const { maxBytes, maxBytesPerOwner, pageBytes } = this.limits;
    return this.held + pageBytes <= maxBytes && (this.heldBy.get(owner) ?? 0) + pageBytes <= maxBytesPerOwner;
  }

  private count(owner: string, delta: number): void {
    if (delta === 0) return;
    this.held += delta;
    const left = (this.heldBy.get(owner) ?? 0) + delta;
    if (left > 0) this.heldBy.set(owner, left);
    else this.heldBy.delete(owner);
  }

  /** Admits waiters in order, passing over those whose owner is at its share (they wait on, first in line). */
  private grant(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const w = this.waiting[i]!;
      if (!this.fits(w.owner)) {
        // The node is full: nobody behind fits either.
        if (this.held + this.limits.pageBytes > this.limits.maxBytes) return;
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      w.admit();
    }
  }
}
