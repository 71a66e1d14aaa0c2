/**
 * Bytes of store pages that streams hold at once, across the node. A stream reads the store a page
 * at a time (catch-up transactions, a snapshot's contracts) and keeps the page, decoded, until its
 * client has taken every row: a client that stops reading keeps its page for as long as it likes.
 * Each page is bounded, but not the pages together, and 200 paused streams of one user over
 * transactions of a few megabytes each held gigabytes (a hostile review, session 18).
 *
 * A stream asks to be admitted before each read, and its page then counts until the stream is done
 * with it. Past the node's limit, or its owner's share of it, the read waits: the client sees a
 * slower stream, never an error, and a stream that waits holds no page. An owner holds at most an
 * eighth of the budget, so the paused streams of one user (or a few) leave room for everyone else.
 *
 * The rules that keep the bound honest (reviews found each one missing):
 * - An admitted read counts as one page bound until its page is weighed, and an owner (and the
 *   node) has only a few reads admitted and not yet weighed at once: a commit that wakes 40
 *   streams of one user must not admit 40 pages of a 3 MB transaction before any is weighed.
 * - A stream going on to its next page is first in line, and what it needs is the difference
 *   between its next page and the one it gives up: giving its room to a waiting stream first let a
 *   client that reads its streams one after another deadlock itself. (It is still held to the
 *   limits: exempt, 200 streams of small first pages swapped them for 4 MB ones, 800 MiB.)
 * - A stream that ends gives its page back at once, whether or not its generator ever resumes.
 *
 * Pages are not taken back from streams whose clients stall: the stream's transport would keep the
 * messages it holds for the client, and ended streams would pile those up to the stream caps (see
 * docs/decisions.md, session 22). So a user whose own paused streams fill its share waits for them,
 * and enough users' paused streams together hold the others' update and snapshot streams still.
 */

export interface PageHold {
  /**
   * Resolves when the stream may read its next page, at once when `signal` aborts or the hold is
   * closed. A hold whose previous page still counts swaps it for the next.
   */
  admit(signal: AbortSignal): Promise<void>;
  /** The page just read weighs `bytes` (it counts instead of the admission's estimate). */
  weigh(bytes: number): void;
  /** The stream is done with its page and waits for new rows: the room goes to others. */
  release(): void;
  /** The stream ended: its page no longer counts, and it is admitted at once from now on (idempotent). */
  close(): void;
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

/** Reads admitted and not yet weighed, at once: per owner, and across the node. */
const OWNER_READS_IN_FLIGHT = 2;
const READS_IN_FLIGHT = 16;

interface Waiter {
  readonly owner: string;
  /** Bytes its admission adds: a page bound, less the page it gives up. */
  readonly growth: () => number;
  readonly start: () => void;
}

/** Told when a stream starts and stops waiting for room (the JSON gateway's idle clock). */
export type PageWaitListener = (waiting: boolean) => void;

export class StreamPageBudget {
  private held = 0;
  private readonly heldBy = new Map<string, number>();
  private inFlight = 0;
  private readonly inFlightBy = new Map<string, number>();
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
  open(owner: string, onWait?: PageWaitListener): PageHold {
    let mine = 0;
    let admitted = false;
    let closed = false;
    let queued: { readonly waiter: Waiter; readonly settle: () => void } | undefined;
    const set = (bytes: number) => {
      this.held += bytes - mine;
      addTo(this.heldBy, owner, bytes - mine);
      mine = bytes;
    };
    const settleAdmission = () => {
      if (!admitted) return;
      admitted = false;
      this.inFlight--;
      addTo(this.inFlightBy, owner, -1);
    };
    const start = () => {
      admitted = true;
      this.inFlight++;
      addTo(this.inFlightBy, owner, 1);
      set(this.limits.pageBytes);
    };
    return {
      admit: (signal) => {
        if (closed || signal.aborted) return Promise.resolve();
        if (queued) throw new Error("a stream's hold admits one read at a time");
        settleAdmission();
        // Going on to its next page (see above): first in line.
        const continuing = mine > 0;
        const growth = () => this.limits.pageBytes - mine;
        if (this.waiting.length === 0 && this.fits(owner, growth())) {
          start();
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          const settle = () => {
            signal.removeEventListener("abort", settle);
            const at = queued ? this.waiting.indexOf(queued.waiter) : -1;
            if (at >= 0) this.waiting.splice(at, 1);
            queued = undefined;
            onWait?.(false);
            resolve();
          };
          const waiter: Waiter = {
            owner,
            growth,
            start: () => {
              start();
              settle();
            },
          };
          queued = { waiter, settle };
          signal.addEventListener("abort", settle, { once: true });
          if (continuing) this.waiting.unshift(waiter);
          else this.waiting.push(waiter);
          onWait?.(true);
          // Those ahead may all be owners at their share: this one need not wait behind them.
          this.grant();
        });
      },
      weigh: (bytes) => {
        if (closed) return;
        settleAdmission();
        set(bytes);
        this.grant();
      },
      release: () => {
        if (mine === 0 && !admitted) return;
        settleAdmission();
        set(0);
        this.grant();
      },
      close: () => {
        if (closed) return;
        closed = true;
        queued?.settle();
        settleAdmission();
        set(0);
        this.grant();
      },
    };
  }

  /** Room for one more read of `owner`'s that adds `growth` bytes (none needed to shrink). */
  private fits(owner: string, growth: number): boolean {
    if (this.inFlight >= READS_IN_FLIGHT || (this.inFlightBy.get(owner) ?? 0) >= OWNER_READS_IN_FLIGHT) return false;
    return growth <= 0 || (this.held + growth <= this.limits.maxBytes && (this.heldBy.get(owner) ?? 0) + growth <= this.limits.maxBytesPerOwner);
  }

  /** Admits waiters in order, passing over those that do not fit (they wait on, first in line). */
  private grant(): void {
    for (let i = 0; i < this.waiting.length && this.inFlight < READS_IN_FLIGHT; ) {
      const w = this.waiting[i]!;
      if (this.fits(w.owner, w.growth())) w.start(); // removes it from the line
      else i++;
    }
  }
}

function addTo(counts: Map<string, number>, owner: string, delta: number): void {
  if (delta === 0) return;
  const left = (counts.get(owner) ?? 0) + delta;
  if (left > 0) counts.set(owner, left);
  else counts.delete(owner);
}
