/**
 * Offset checkpoints on the completion stream and the open-ended update stream, interleaved as
 * Canton does: when a stream has delivered everything up to the ledger end it read (the end of a
 * range) and that end is past the last message it sent — the offsets in between held nothing
 * this subscriber sees: other users' completions, invisible transactions, rejections — it sends
 * `OffsetCheckpoint{offset: end, synchronizer_times: [record time at end]}`. A client may resume
 * from a checkpoint's offset and knows that nothing for it happened in between.
 *
 * The rows come from `tail` (src/ledger/streams.ts), one bounded range at a time: a range ends at
 * the ledger end read when it started; the next starts when the ledger end moves past it.
 */
import { tail } from "../../../ledger/streams.js";
import type { LedgerStore } from "../../../ledger/store-port.js";

export interface CheckpointAt {
  readonly offset: bigint;
  /** Record time of the update or completion at `offset`; undefined if none could be read. */
  readonly recordTime: bigint | undefined;
}

export interface CheckpointedTailOptions<T, R> {
  readonly beginExclusive: bigint;
  readonly signal: AbortSignal;
  /** The message for a row, or undefined when the subscriber sees nothing of it. */
  readonly project: (row: T) => R | undefined;
  readonly checkpoint: (at: CheckpointAt) => R;
}

type Row = { readonly offset: bigint; readonly recordTime: bigint };

export async function* checkpointedTail<T extends Row, R>(
  store: LedgerStore,
  page: (beginExclusive: bigint, endInclusive: bigint, limit: number) => Promise<T[]>,
  options: CheckpointedTailOptions<T, R>,
): AsyncGenerator<R> {
  const { signal } = options;
  // Subscribed before the first read of the end, so that no commit after it goes unnoticed.
  const ends = new LedgerEndWaiter(store, signal);
  let cursor = options.beginExclusive;
  let lastSent = cursor;
  try {
    while (!signal.aborted) {
      const end = await store.ledgerEnd();
      if (end <= cursor) {
        await ends.beyond(cursor);
        continue;
      }
      let last: T | undefined;
      for await (const row of tail(store, page, { beginExclusive: cursor, endInclusive: end, signal })) {
        last = row;
        const message = options.project(row);
        if (message === undefined) continue;
        lastSent = row.offset;
        yield message;
      }
      if (signal.aborted) return;
      cursor = end;
      if (lastSent < end) {
        lastSent = end;
        const recordTime = last?.offset === end ? last.recordTime : await recordTimeAt(store, end);
        yield options.checkpoint({ offset: end, recordTime });
      }
    }
  } finally {
    ends.dispose();
  }
}

/** Every offset has exactly one completion, and it carries the offset's record time. */
async function recordTimeAt(store: LedgerStore, offset: bigint): Promise<bigint | undefined> {
  const [completion] = await store.completions(offset - 1n, offset, 1);
  return completion?.offset === offset ? completion.recordTime : undefined;
}

/** Resolves when the ledger end moves past a cursor, or when the signal aborts. */
class LedgerEndWaiter {
  private known = -1n;
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;
  private readonly onAbort = () => this.wake?.();

  constructor(
    store: LedgerStore,
    private readonly signal: AbortSignal,
  ) {
    this.unsubscribe = store.onLedgerEnd((end) => {
      if (end > this.known) this.known = end;
      this.wake?.();
    });
    signal.addEventListener("abort", this.onAbort);
  }

  beyond(cursor: bigint): Promise<void> {
    if (this.known > cursor || this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve();
      };
    });
  }

  dispose(): void {
    this.unsubscribe();
    this.signal.removeEventListener("abort", this.onAbort);
    this.wake?.();
  }
}
