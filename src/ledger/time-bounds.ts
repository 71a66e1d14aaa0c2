/**
 * Bounds on a transaction's ledger effective time, from Daml's ledger-time primitives
 * (`isLedgerTimeLT` and its siblings). Unlike `getTime`, which fixes a transaction to the time it
 * was interpreted at, a comparison only requires the time to stay on the same side of its
 * argument: an externally signed transfer prepared now can be executed later, as long as its
 * deadlines still hold (the prepared metadata's min/max ledger effective time).
 */
import { updated } from "../util/extend.js";
export interface TimeBounds {
  /** Inclusive, microseconds since the epoch. */
  readonly min?: bigint;
  /** Inclusive, microseconds since the epoch. */
  readonly max?: bigint;
}

export const UNBOUNDED: TimeBounds = {};

export type TimeComparison = "LT" | "LE" | "GT" | "GE";

/** `ledgerTime <op> time`, and the bounds that keep the answer the same. */
export function compareLedgerTime(bounds: TimeBounds, ledgerTime: bigint, op: TimeComparison, time: bigint): { readonly answer: boolean; readonly bounds: TimeBounds } {
  // GT and GE are the negations of LE and LT: one pair of cases covers all four.
  const strict = op === "LT" || op === "GE";
  const below = strict ? ledgerTime < time : ledgerTime <= time;
  // Below: at most time - 1 (strict) or time; otherwise at least time (strict) or time + 1.
  const narrowed = below ? atMost(bounds, strict ? time - 1n : time) : atLeast(bounds, strict ? time : time + 1n);
  return { answer: op === "LT" || op === "LE" ? below : !below, bounds: narrowed };
}

export function within(bounds: TimeBounds, time: bigint): boolean {
  return (bounds.min === undefined || time >= bounds.min) && (bounds.max === undefined || time <= bounds.max);
}

/** `time` if the bounds allow it, else the bound nearest to it. */
export function nearestWithin(bounds: TimeBounds, time: bigint): bigint {
  if (bounds.min !== undefined && time < bounds.min) return bounds.min;
  if (bounds.max !== undefined && time > bounds.max) return bounds.max;
  return time;
}

/** The bounds a prepared transaction states: fixed at `ledgerTime` if it read the time (`getTime`). */
export function preparedBounds(interpreted: { readonly usesTime: boolean; readonly timeBounds: TimeBounds }, ledgerTime: bigint): TimeBounds {
  return interpreted.usesTime ? { min: ledgerTime, max: ledgerTime } : interpreted.timeBounds;
}

function atMost(b: TimeBounds, max: bigint): TimeBounds {
  return b.max !== undefined && b.max <= max ? b : updated(b, { max });
}

function atLeast(b: TimeBounds, min: bigint): TimeBounds {
  return b.min !== undefined && b.min >= min ? b : updated(b, { min });
}
