/**
 * An open-ended stream's rows (completions, transactions), read from the store only when its hub
 * says something may be there for this subscriber (src/ledger/stream-watch.ts): an idle stream
 * costs nothing per commit.
 *
 * Offset checkpoints are interleaved as Canton does: when a stream has delivered everything up to
 * the end it read and that end is past the last message it sent — the offsets in between held
 * nothing this subscriber sees: other users' completions, invisible transactions, rejections — it
 * sends `OffsetCheckpoint{offset: end, synchronizer_times: [record time at end]}`, after a read and
 * on the hub's tick. A client may resume from a checkpoint's offset knowing nothing for it happened
 * in between.
 */
import type { LedgerStore } from "../../../ledger/store-port.js";
import type { PageHold } from "../../../ledger/stream-page-budget.js";
import type { StreamWatch } from "../../../ledger/stream-watch.js";
import { tail, type PageRead } from "../../../ledger/streams.js";

export interface CheckpointAt {
  readonly offset: bigint;
  /** Record time of the update or completion at `offset`; undefined if none could be read. */
  readonly recordTime: bigint | undefined;
}

/** Where a watched stream stands: its hub's position, and the watch a commit marks. */
export interface WatchedSource {
  readonly end: bigint;
  readonly endRecordTime: bigint | undefined;
}

export interface WatchedTailOptions<T, R> {
  readonly beginExclusive: bigint;
  readonly signal: AbortSignal;
  /** The store's rows in (begin, end], at most `limit`. */
  readonly page: PageRead<T>;
  /** See TailOptions.maxPageBytes. */
  readonly maxPageBytes?: number;
  /** See TailOptions.pages. */
  readonly pages?: PageHold;
  /** The message for a row, or undefined when the subscriber sees nothing of it. */
  readonly project: (row: T) => R | undefined;
  readonly checkpoint: (at: CheckpointAt) => R;
}

export async function* watchedTail<T extends { readonly offset: bigint }, R>(
  hub: WatchedSource,
  watch: StreamWatch,
  store: LedgerStore,
  options: WatchedTailOptions<T, R>,
): AsyncGenerator<R> {
  const { signal, page } = options;
  const onAbort = () => watch.close();
  signal.addEventListener("abort", onAbort);
  let cursor = options.beginExclusive;
  let lastSent = cursor;
  // After its first read to the end, the stream follows the ledger: its reads are not catch-ups.
  let following = false;
  try {
    while (!signal.aborted) {
      // Read together: the record time belongs to this end.
      const end = hub.end;
      const endRecordTime = hub.endRecordTime;
      // Caught up: whatever marked the stream is behind it (no await since `end` was read).
      if (end <= cursor) watch.dirty = false;
      else {
        if (watch.dirty) {
          watch.dirty = false;
          for await (const row of tail(store, page, { beginExclusive: cursor, endInclusive: end, signal, following, maxPageBytes: options.maxPageBytes, pages: options.pages })) {
            const message = options.project(row);
            if (message === undefined) continue;
            lastSent = row.offset;
            yield message;
          }
          if (signal.aborted) return;
        }
        following = true;
        cursor = end;
        if (lastSent < end) {
          lastSent = end;
          yield options.checkpoint({ offset: end, recordTime: endRecordTime ?? (await recordTimeAt(store, end)) });
        }
      }
      await watch.next();
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    watch.close();
  }
}

/** Every offset has exactly one completion, and it carries the offset's record time. */
async function recordTimeAt(store: LedgerStore, offset: bigint): Promise<bigint | undefined> {
  const [completion] = await store.completions(offset - 1n, offset, 1);
  return completion?.offset === offset ? completion.recordTime : undefined;
}
