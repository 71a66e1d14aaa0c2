/**
 * A batch whose requests are answered one by one: some are refused before the transaction (a
 * document over MongoDB's size limit), the rest are committed together, and every request gets
 * its own outcome in its place.
 */
import type { CommitResult } from "../../ledger/store-port.js";

export type CommitOutcome = { readonly ok: true; readonly result: CommitResult } | { readonly ok: false; readonly error: unknown };

/** A batch split into the items to commit and, by position, the refusals of the others. */
export interface ScreenedBatch<T> {
  readonly accepted: readonly T[];
  /** One entry per item of the batch: its refusal, or undefined where it was accepted. */
  readonly refusals: readonly (Error | undefined)[];
}

export function screenBatch<T>(items: readonly T[], refuse: (item: T) => Error | undefined): ScreenedBatch<T> {
  const accepted: T[] = [];
  const refusals = items.map((item) => {
    const refusal = refuse(item);
    if (!refusal) accepted.push(item);
    return refusal;
  });
  return { accepted, refusals };
}

/** The outcome of every item of the batch, in its order: its refusal, or the next result of the accepted ones. */
export function mergeOutcomes(refusals: readonly (Error | undefined)[], results: readonly CommitResult[]): CommitOutcome[] {
  const expected = refusals.filter((r) => r === undefined).length;
  if (results.length !== expected) throw new Error(`${results.length} commit results for ${expected} accepted requests`);
  let next = 0;
  return refusals.map((error) => (error ? { ok: false, error } : { ok: true, result: results[next++] }));
}
