/** The deduplication rule, shared by the ledger's early check and both adapters' commit-time check. */
import type { Deduplication } from "./store-port.js";

/** Whether a previous acceptance of the same change falls inside the deduplication period. */
export function isDuplicate(previous: { readonly offset: bigint; readonly recordTime: bigint }, dedup: Deduplication): boolean {
  return dedup.sinceOffset !== undefined ? previous.offset > dedup.sinceOffset : previous.recordTime >= dedup.since;
}
