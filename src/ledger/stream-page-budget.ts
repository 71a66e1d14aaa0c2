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
 * - A page whose client has taken no row of it for STALLED_PAGE_MS is taken back, and its stream
 *   ended (`onEvict`), when a stream waits for room it needs: any owner's when the node is full,
 *   the same owner's when its share is (a client that reads one of its streams and not the others
 *   would otherwise wait for good). Otherwise eight users' paused streams would hold every other
 *   user's update and snapshot streams still for as long as they liked.
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
  /** The client took a row of the page: it is not stalled. */
  touch(): void;
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

/** How long a page may wait for its client while a stream waits for the room it holds. */
export const STALLED_PAGE_MS = 30_000;

/** Reads admitted and not yet weighed, at once: per owner, and across the node. */
const OWNER_READS_IN_FLIGHT = 2;
const READS_IN_FLIGHT = 16;

interface Waiter {
  readonly owner: string;
  /** Going on to its next page (see above): first in line. */
  readonly continuing: boolean;
  /** Bytes its admission adds: a page bound, less the page it gives up. */
  readonly growth: () => number;
  readonly start: () => void;
}

/** Told when a stream starts and stops waiting for room (the JSON gateway's idle clock). */
export type PageWaitListener = (waiting: boolean) => void;

/** A stream's page, as the budget watches it for stalling. */
interface Holding {
  readonly owner: string;
  /** When its client last took a row of it (or it was weighed). */
  touchedAt: number;
  /** Takes the page back and ends the stream. */
  readonly evict: () => void;
}

export class StreamPageBudget {
  private held = 0;
  private readonly heldBy = new Map<string, number>();
  private inFlight = 0;
  private readonly inFlightBy = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  /** Weighed pages whose stream is not waiting to go on. */
  private readonly holdings = new Map<object, Holding>();
  private stallCheck?: NodeJS.Timeout;

  constructor(
    readonly limits: StreamPageLimits = STREAM_PAGE_LIMITS,
    private readonly stalledPageMs = STALLED_PAGE_MS,
  ) {}

  /** Bytes counted now (weighed pages and admitted reads). */
  get heldBytes(): number {
    return this.held;
  }

  /** Streams waiting to be admitted. */
  get waitingStreams(): number {
    return this.waiting.length;
  }

  /**
   * A stream's hold; `owner` is the user the stream reads for. `onEvict` ends the stream when its
   * page is taken back for stalling (the hold is closed by then).
   */
  open(owner: string, onWait?: PageWaitListener, onEvict?: () => void): PageHold {
    let mine = 0;
    let admitted = false;
    let closed = false;
    let queued: { readonly waiter: Waiter; readonly settle: () => void } | undefined;
    const key = {};
    const set = (bytes: number) => {
      this.held += bytes - mine;
      addTo(this.heldBy, owner, bytes - mine);
      mine = bytes;
      this.holdings.delete(key);
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
        const continuing = mine > 0;
        const growth = () => this.limits.pageBytes - mine;
        if (this.waiting.length === 0 && this.fits(owner, growth())) {
          start();
          return Promise.resolve();
        }
        // Its client has taken the page's rows: waiting to go on is not stalling.
        this.holdings.delete(key);
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
            continuing,
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
        this.holdings.set(key, {
          owner,
          touchedAt: Date.now(),
          evict: () => {
            closed = true;
            queued?.settle();
            settleAdmission();
            set(0);
            onEvict?.();
          },
        });
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
      touch: () => {
        const h = this.holdings.get(key);
        if (h) h.touchedAt = Date.now();
      },
    };
  }

  private inFlightFull(owner: string): boolean {
    return this.inFlight >= READS_IN_FLIGHT || (this.inFlightBy.get(owner) ?? 0) >= OWNER_READS_IN_FLIGHT;
  }

  private nodeFull(growth: number): boolean {
    return this.held + growth > this.limits.maxBytes;
  }

  private shareFull(owner: string, growth: number): boolean {
    return (this.heldBy.get(owner) ?? 0) + growth > this.limits.maxBytesPerOwner;
  }

  private fits(owner: string, growth: number): boolean {
    return !this.inFlightFull(owner) && (growth <= 0 || (!this.nodeFull(growth) && !this.shareFull(owner, growth)));
  }

  /** Admits waiters in order, passing over those that do not fit; takes stalled pages back for them. */
  private grant(): void {
    do {
      for (let i = 0; i < this.waiting.length && this.inFlight < READS_IN_FLIGHT; ) {
        const w = this.waiting[i]!;
        if (this.fits(w.owner, w.growth())) w.start(); // removes it from the line
        else i++;
      }
    } while (this.waiting.length > 0 && this.takeBackOneStalled());
  }

  /**
   * One stalled page taken back for a waiter it would help: any owner's for a waiter the node's
   * limit holds back, the waiter's owner's for one its share holds back (waiters held back only by
   * the reads in flight will go on soon). False if none is stalled yet: then a check is set for when
   * the first one will be.
   */
  private takeBackOneStalled(): boolean {
    clearTimeout(this.stallCheck);
    this.stallCheck = undefined;
    let anyOwner = false;
    const owners = new Set<string>();
    for (const w of this.waiting) {
      if (this.inFlightFull(w.owner)) continue;
      const growth = w.growth();
      if (this.shareFull(w.owner, growth)) owners.add(w.owner);
      else if (this.nodeFull(growth)) anyOwner = true;
    }
    if (!anyOwner && owners.size === 0) return false;
    const now = Date.now();
    let oldest: Holding | undefined;
    for (const h of this.holdings.values()) {
      if ((anyOwner || owners.has(h.owner)) && (!oldest || h.touchedAt < oldest.touchedAt)) oldest = h;
    }
    if (!oldest) return false;
    if (now - oldest.touchedAt >= this.stalledPageMs) {
      oldest.evict();
      return true;
    }
    this.stallCheck = setTimeout(() => this.grant(), oldest.touchedAt + this.stalledPageMs - now).unref();
    return false;
  }
}

function addTo(counts: Map<string, number>, owner: string, delta: number): void {
  if (delta === 0) return;
  const left = (counts.get(owner) ?? 0) + delta;
  if (left > 0) counts.set(owner, left);
  else counts.delete(owner);
}
