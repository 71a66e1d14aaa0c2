/**
 * The completion stream's rows, read from the store only when the completion hub says something
 * may be there for this subscriber (src/ledger/completion-hub.ts): an idle stream costs nothing per
 * commit. Offset checkpoints follow Canton's rule (checkpointed-tail.ts): after a read, and on the
 * hub's checkpoint tick, a stream behind the ledger end says how far nothing was for it.
 */
import type { CompletionHub } from "../../../ledger/completion-hub.js";
import type { CompletionRecord } from "../../../ledger/records.js";
import type { LedgerStore } from "../../../ledger/store-port.js";
import { tail } from "../../../ledger/streams.js";
import type { CheckpointAt } from "./checkpointed-tail.js";

export interface CompletionTailOptions<R> {
  readonly userId: string;
  readonly parties: ReadonlySet<string>;
  readonly beginExclusive: bigint;
  readonly signal: AbortSignal;
  /** The message for a completion, or undefined when the subscriber sees nothing of it. */
  readonly project: (row: CompletionRecord) => R | undefined;
  readonly checkpoint: (at: CheckpointAt) => R;
}

export async function* completionTail<R>(hub: CompletionHub, store: LedgerStore, options: CompletionTailOptions<R>): AsyncGenerator<R> {
  const { signal } = options;
  const watch = hub.watch(options.userId, options.parties);
  const onAbort = () => watch.close();
  signal.addEventListener("abort", onAbort);
  const page = (b: bigint, e: bigint, l: number) => store.completions(b, e, l);
  let cursor = options.beginExclusive;
  let lastSent = cursor;
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
          for await (const row of tail(store, page, { beginExclusive: cursor, endInclusive: end, signal })) {
            const message = options.project(row);
            if (message === undefined) continue;
            lastSent = row.offset;
            yield message;
          }
          if (signal.aborted) return;
        }
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
