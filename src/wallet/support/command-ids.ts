/**
 * Command ids derived from a client's idempotency key (`tracking_id`, `deduplication_id`): the
 * ledger deduplicates on them, so a retried request never runs twice. Splice accepts any string
 * as key, a command id only a LedgerString: a key that does not fit is replaced by its hash,
 * which keeps retries with the same key on the same command id. So is a key that looks like a
 * hashed one (`sha256-…`): kept as is, it would share its command id with the key it names the
 * hash of, and the second of two different payments would be refused as a duplicate.
 */
import { createHash } from "node:crypto";
import { isLedgerString } from "../../ledger/ids.js";

const HASHED = "sha256-";

export function commandIdFor(prefix: string, key: string): string {
  const plain = `${prefix}-${key}`;
  if (key.length > 0 && !key.startsWith(HASHED) && isLedgerString(plain)) return plain;
  return `${prefix}-${HASHED}${createHash("sha256").update(key, "utf8").digest("hex")}`;
}

/** The deduplication period of idempotency keys: 24 hours, as Splice's wallet. */
export const DEDUPLICATION_DAY = { kind: "duration", seconds: 24n * 3600n, nanos: 0 } as const;
