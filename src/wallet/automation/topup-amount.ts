/**
 * How much traffic one top-up buys, and how often (Splice's `ExtraTrafficTopupParameters`):
 *
 *   I' = max(minTopupInterval, p);  T = ceil(I' / p) · p;  A = ceil(r · T)
 *   if A < minTopupAmount:  T = ceil(ceil(minTopupAmount / r) s / p) · p;  A = ceil(r · T)
 *
 * with r the target throughput (bytes/s) and p the automation's polling interval. Example:
 * r = 20000 B/s, I = 1m, p = 30s gives T = 60 s and A = 1,200,000 bytes.
 */

export interface TopupPlan {
  /** Bytes per purchase. */
  readonly amount: bigint;
  /** Least time between purchases (ms), a multiple of the polling interval. */
  readonly intervalMs: number;
}

const roundUpTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

export function topupPlan(targetThroughput: number, minTopupIntervalMs: number, pollMs: number, minTopupAmount: bigint): TopupPlan {
  const bytesOver = (ms: number) => BigInt(Math.ceil((targetThroughput * ms) / 1000));
  const intervalMs = roundUpTo(Math.max(minTopupIntervalMs, pollMs), pollMs);
  const amount = bytesOver(intervalMs);
  if (amount >= minTopupAmount) return { amount, intervalMs };
  const longer = roundUpTo(Math.ceil(Number(minTopupAmount) / targetThroughput) * 1000, pollMs);
  return { amount: bytesOver(longer), intervalMs: longer };
}
