/**
 * One member's traffic account, as Canton's sequencer keeps it: a base-rate bucket (`burstAmount`
 * bytes, refilled evenly over `burstWindow`) spent first, then extra traffic bought with
 * `AmuletRules_BuyMemberTraffic`. Pure functions over plain values; bigints are bytes and micros.
 */
import { updated } from "../../util/extend.js";

export interface BaseRate {
  readonly burstAmount: bigint;
  readonly burstWindowMicros: bigint;
}

export interface TrafficState {
  /** Extra (purchased) traffic consumed so far. */
  readonly extraConsumed: bigint;
  /** What was left in the base-rate bucket at `at`. */
  readonly baseRemainder: bigint;
  /** Record time (micros) of the last change. */
  readonly at: bigint;
}

/** A fresh member starts with a full bucket. */
export const initialState = (rate: BaseRate, at: bigint): TrafficState => ({ extraConsumed: 0n, baseRemainder: rate.burstAmount, at });

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The bucket as it stands at `now` (a clock moved backwards refills nothing). */
export function refilled(state: TrafficState, rate: BaseRate, now: bigint): TrafficState {
  const elapsed = now > state.at ? now - state.at : 0n;
  const refill = rate.burstWindowMicros > 0n ? (elapsed * rate.burstAmount) / rate.burstWindowMicros : rate.burstAmount;
  return updated(state, { baseRemainder: min(rate.burstAmount, state.baseRemainder + refill), at: now > state.at ? now : state.at });
}

/** How a cost was paid, so that an uncommitted transaction can give exactly that back. */
export interface Spent {
  readonly state: TrafficState;
  readonly fromBase: bigint;
  readonly fromExtra: bigint;
}

/** Pays `cost` from the bucket, then from extra traffic; undefined when both together fall short. */
export function spend(state: TrafficState, rate: BaseRate, extraLimit: bigint, cost: bigint, now: bigint): Spent | undefined {
  const s = refilled(state, rate, now);
  const fromBase = min(cost, s.baseRemainder);
  const fromExtra = cost - fromBase;
  if (s.extraConsumed + fromExtra > extraLimit) return undefined;
  return { state: updated(s, { baseRemainder: s.baseRemainder - fromBase, extraConsumed: s.extraConsumed + fromExtra }), fromBase, fromExtra };
}

/** Gives back what `spent` took (the transaction was not committed). */
export function refund(state: TrafficState, rate: BaseRate, spent: Pick<Spent, "fromBase" | "fromExtra">): TrafficState {
  return updated(state, {
    baseRemainder: min(rate.burstAmount, state.baseRemainder + spent.fromBase),
    extraConsumed: state.extraConsumed - spent.fromExtra,
  });
}
