/**
 * Holding fees (api-shapes.md §6), as pure functions over `ExpiringAmount`. A holding created at
 * round c with rate r has accrued min(initial, (n − c) × r) by round n; what is left is its
 * current amount, and once nothing is left it is dust the DSO may expire.
 */
import { Numeric } from "../../ledger/numeric.js";
import type { ExpiringAmount, RatePerRound, Round } from "./types.js";

export function holdingFee(amount: ExpiringAmount, round: bigint): Numeric {
  const elapsed = round - amount.createdAt.number;
  if (elapsed <= 0n) return Numeric.zero;
  return amount.ratePerRound.rate.mulInt(elapsed).min(amount.initialAmount);
}

/** Splice's `actualAmount`: what the holding is worth at `round`, never negative. */
export function currentAmount(amount: ExpiringAmount, round: bigint): Numeric {
  return amount.initialAmount.sub(holdingFee(amount, round));
}

/** First round at which the whole amount is gone; undefined when the rate is zero. */
export function expiresAtRound(amount: ExpiringAmount): bigint | undefined {
  if (!amount.ratePerRound.rate.isPositive()) return undefined;
  return amount.createdAt.number + amount.initialAmount.div(amount.ratePerRound.rate).ceilInt();
}

export function isExpired(amount: ExpiringAmount, openRound: bigint): boolean {
  const at = expiresAtRound(amount);
  return at !== undefined && at <= openRound;
}

/** The "as of round 0" normalisation Splice's transaction logs use. */
export function valueAsOfRound0(amount: ExpiringAmount): Numeric {
  return amount.initialAmount.add(amount.ratePerRound.rate.mulInt(amount.createdAt.number));
}

export function expiringAmount(initialAmount: Numeric, round: Round, rate: RatePerRound): ExpiringAmount {
  return { initialAmount, createdAt: { number: round.number }, ratePerRound: { rate: rate.rate } };
}
