/**
 * Command ids derived from a client's idempotency key (`tracking_id`, `deduplication_id`): the
 * ledger deduplicates on them, so a retried request never runs twice. Splice accepts any string
 * as key, a command id only a LedgerString: a key that does not fit is replaced by its hash,
 * which keeps retries with the same key on the same command id.
 */
import { createHash } from "node:crypto";
import { isLedgerString } from "../../ledger/ids.js";

export function commandIdFor(prefix: string, key: string): string {
  const plain = `${prefix}-${key}`;
  if (key.length > 0 && isLedgerString(plain)) return plain;
  return `${prefix}-sha256-${createHash("sha256").update(key, "utf8").digest("hex")}`;
}

/** The deduplication period of idempotency keys: 24 hours, as Splice's wallet. */
export const DEDUPLICATION_DAY = { kind: "duration", seconds: 24n * 3600n, nanos: 0 } as const;
