/**
 * Ordered reads that catch up from the store and then follow the ledger end: the completion and
 * update streams. A reader resumes exactly after `beginExclusive`; with `endInclusive` it stops
 * there, otherwise it waits for new commits until the signal aborts.
 */
import { jsonSize } from "../util/json-size.js";
import { catchUpTurn } from "./catch-up-turns.js";
import type { PageHold } from "./stream-page-budget.js";
import type { LedgerStore } from "./store-port.js";

/**
 * Rows per store read. A page is read, decoded and streamed without returning to the event loop;
 * smaller pages keep that stretch short (~2 ms), so the peer's flow-control updates are served in
 * time and the client never starves (1000-row pages made a 100k catch-up ~20% slower).
 */
const PAGE = 250;

export interface TailOptions {
  readonly beginExclusive: bigint;
  readonly endInclusive?: bigint;
  readonly signal: AbortSignal;
  /** The reader already follows the ledger end (it read up to it before): its first page is free. */
  readonly following?: boolean;
  /**
   * Passed to `page`, which then ends a page once its rows' stored size reaches it (see the
   * store's `transactions`): a short page is read on from its last row rather than taken as the end.
   */
  readonly maxPageBytes?: number;
  /** The stream's share of the node's page budget: each read waits to be admitted, each page is weighed. */
  readonly pages?: PageHold;
}

/** The store's rows in (beginExclusive, endInclusive], at most `limit` (and `maxBytes`, when given). */
export type PageRead<T> = (beginExclusive: bigint, endInclusive: bigint, limit: number, maxBytes?: number) => Promise<T[]>;

export async function* tail<T extends { readonly offset: bigint }>(
  store: LedgerStore,
  page: PageRead<T>,
  options: TailOptions,
): AsyncGenerator<T> {
  let cursor = options.beginExclusive;
  /** Once it has read up to the end, a stream follows it: its next page after a wake-up is free. */
  let caughtUp = options.following ?? false;
  /** The last page was full: more backlog to read, which waits its turn like any catch-up. */
  let backlog = false;
  const wake = new Wakeup(store, options.signal);
  try {
    while (!options.signal.aborted) {
      const ledgerEnd = await store.ledgerEnd();
      const upTo = options.endInclusive !== undefined && options.endInclusive < ledgerEnd ? options.endInclusive : ledgerEnd;
      if (cursor < upTo) {
        // A backlog waits its turn among the streams catching up (catch-up-turns.ts): a new
        // stream more than a page behind, and every page after a full one. Without it the store's
        // immediate answers chained page after page in microtasks, and streams opened from an
        // early offset held up the whole node.
        if (backlog || (!caughtUp && upTo - cursor > BigInt(PAGE))) await catchUpTurn(options.signal);
        if (options.pages) await options.pages.admit(options.signal);
        if (options.signal.aborted) return;
        const rows = await page(cursor, upTo, PAGE, options.maxPageBytes);
        options.pages?.weigh(jsonSize(rows));
        for (const row of rows) {
          if (options.signal.aborted) return;
          yield row;
        }
        // Offsets without rows of this kind (e.g. rejections for the update stream) are skipped
        // too, once a page shows nothing more is there: a full page, or one that may have been
        // cut by its size, is read on from its last row.
        const last = rows.at(-1)?.offset;
        backlog = rows.length === PAGE || (options.maxPageBytes !== undefined && last !== undefined && last < upTo);
        // Every row has been taken. A stream with more to read swaps its page for the next (its
        // next admission); one that has caught up gives its room to others while it waits.
        if (!backlog) {
          options.pages?.release();
          caughtUp = true;
        }
        cursor = backlog ? last! : upTo;
        continue;
      }
      if (options.endInclusive !== undefined && cursor >= options.endInclusive) return;
      await wake.next(cursor);
    }
  } finally {
    options.pages?.release();
    wake.dispose();
  }
}

/** Resolves when the ledger end moves past a cursor, or when the signal aborts. */
class Wakeup {
  private end = -1n;
  private waiter: (() => void) | undefined;
  private readonly unsubscribe: () => void;
  private readonly onAbort = () => this.waiter?.();

  constructor(
    store: LedgerStore,
    private readonly signal: AbortSignal,
  ) {
    this.unsubscribe = store.onLedgerEnd((end) => {
      if (end > this.end) this.end = end;
      this.waiter?.();
    });
    signal.addEventListener("abort", this.onAbort);
  }

  next(cursor: bigint): Promise<void> {
    if (this.end > cursor || this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiter = () => {
        this.waiter = undefined;
        resolve();
      };
    });
  }

  dispose(): void {
    this.unsubscribe();
    this.signal.removeEventListener("abort", this.onAbort);
    this.waiter?.();
  }
}
