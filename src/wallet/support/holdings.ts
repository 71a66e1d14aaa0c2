/**
 * A party's CC position as the wallet shows it: each holding's accrued fee and effective amount at
 * the latest open round, and their sums (Splice's GetBalanceResponse / AmuletPosition).
 */
import { Numeric } from "../../ledger/numeric.js";
import { currentAmount, holdingFee } from "../../templates/splice/fees.js";
import type { AmuletPayload, LockedAmuletPayload } from "../../templates/splice/amulet.js";

export interface Position<C> {
  readonly contract: C;
  readonly round: bigint;
  readonly accruedHoldingFee: Numeric;
  readonly effectiveAmount: Numeric;
}

export interface Balance {
  readonly round: bigint;
  readonly effectiveUnlocked: Numeric;
  readonly effectiveLocked: Numeric;
  readonly totalHoldingFees: Numeric;
}

export function positionOf<C>(contract: C, amount: AmuletPayload["amount"], round: bigint): Position<C> {
  return { contract, round, accruedHoldingFee: holdingFee(amount, round), effectiveAmount: currentAmount(amount, round) };
}

export function balanceOf(amulets: readonly AmuletPayload[], locked: readonly LockedAmuletPayload[], round: bigint): Balance {
  // currentAmount = initialAmount - holdingFee (fees.ts); the fee is computed once per holding.
  let effectiveUnlocked = Numeric.zero;
  let effectiveLocked = Numeric.zero;
  let totalHoldingFees = Numeric.zero;
  for (const a of amulets) {
    const fee = holdingFee(a.amount, round);
    effectiveUnlocked = effectiveUnlocked.add(a.amount.initialAmount.sub(fee));
    totalHoldingFees = totalHoldingFees.add(fee);
  }
  for (const l of locked) {
    const fee = holdingFee(l.amulet.amount, round);
    effectiveLocked = effectiveLocked.add(l.amulet.amount.initialAmount.sub(fee));
    totalHoldingFees = totalHoldingFees.add(fee);
  }
  return { round, effectiveUnlocked, effectiveLocked, totalHoldingFees };
}
