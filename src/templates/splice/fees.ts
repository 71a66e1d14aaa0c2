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

/** Splice `maxDecimalDiv10`: past this quotient a division by a rate below 1 counts as unbounded. */
const MAX_DECIMAL_DIV_10 = Numeric.parse("999999999999999999999999999.9999999999");
const ONE = Numeric.parse("1");

/**
 * First round at which the whole amount is gone (Splice `amountExpiresAt`); undefined when it
 * never expires: a zero rate, or a quotient too large for a Decimal (Splice's `AfterMaxBound`).
 */
export function expiresAtRound(amount: ExpiringAmount): bigint | undefined {
  const { initialAmount, ratePerRound } = amount;
  const rate = ratePerRound.rate;
  if (!rate.isPositive()) return undefined;
  if (rate.lt(ONE) && initialAmount.gt(MAX_DECIMAL_DIV_10.mul(rate))) return undefined;
  return amount.createdAt.number + initialAmount.div(rate).ceilInt();
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
