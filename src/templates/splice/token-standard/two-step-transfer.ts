/**
 * Splice's two-step CC transfer (`Splice.Amulet.TwoStepTransfer`): step one locks the sender's
 * CC to the DSO until the deadline, step two unlocks it and transfers to the receiver; an abort
 * unlocks it back to the sender. Used by `AmuletTransferInstruction` (the token-standard offer)
 * and `AmuletAllocation` (a settlement leg).
 */
import { Numeric } from "../../../ledger/numeric.js";
import type { UpdateContext } from "../../../ledger/template.js";
import { chargeSteppedRate, scaleFees } from "../amulet-config.js";
import { LockedAmulet, LockedAmulet_Unlock } from "../amulet.js";
import { META } from "../metadata.js";
import { OpenMiningRound, type OpenMiningRoundPayload } from "../round.js";
import type { PaymentTransferContext } from "../transfer-types.js";
import { MICROS_PER_DAY, type ExtraArgs, type Metadata } from "../types.js";
import { createdAmuletToHolding, exercisePaymentTransfer, holdingsToTransferInputs, paymentContextFrom, senderChangeOf } from "./amulet-payments.js";
import { CONTEXT_KEYS, getContextBool, getContextContractId } from "./choice-context.js";
import { assertDeadlineExceeded, assertWithinDeadline } from "../../../ledger/deadlines.js";

export interface TwoStepTransfer {
  readonly dso: string;
  readonly sender: string;
  readonly receiver: string;
  readonly amount: Numeric;
  /** Provider of the second step's transfer: the sender for an offer, the executor for an allocation. */
  readonly provider: string;
  /** Whether the second step may use the provider's featured app right from the choice context. */
  readonly allowFeaturing: boolean;
  /** Shown by wallets as the reason of the lock. */
  readonly lockContext: string;
  readonly transferBefore: bigint;
  /** Name of the deadline in error messages. */
  readonly transferBeforeDeadline: string;
}

/** Extra CC locked so the second step can still pay its fees if they change meanwhile. */
const FEE_RESERVE_MULTIPLIER = Numeric.parse("4");

const int = (n: bigint) => Numeric.parse(n.toString());

/**
 * Splice `holdingFeesForDuration`: the holding fee (in CC) a holding accrues over `durationMicros`,
 * via the per-day rate as Splice computes it (to keep rounding identical).
 */
export function holdingFeesForDuration(durationMicros: bigint, round: OpenMiningRoundPayload): Numeric {
  const perDayUsd = round.transferConfigUsd.holdingFee.rate.mul(int(MICROS_PER_DAY).div(int(round.tickDuration.microseconds)));
  const feesUsd = perDayUsd.mul(int(durationMicros).div(int(MICROS_PER_DAY)));
  return feesUsd.div(round.amuletPrice);
}

/** Transfer fees the second step will be charged for `amount` (none on this network by default). */
function expectedTransferFees(round: OpenMiningRoundPayload, amount: Numeric): Numeric {
  const config = scaleFees(round.amuletPrice, round.transferConfigUsd);
  return config.createFee.fee.add(chargeSteppedRate(config.transferFee, amount));
}

/** What step one locks on top of the amount, for a lock lasting `durationMicros` (wallets select inputs for it). */
export function twoStepFeeReserve(round: OpenMiningRoundPayload, amount: Numeric, durationMicros: bigint): Numeric {
  return expectedTransferFees(round, amount).add(holdingFeesForDuration(durationMicros, round)).mul(FEE_RESERVE_MULTIPLIER);
}

/** Only the burn is reported on the lock step, as Splice's `copyOnlyBurnMeta`. */
function onlyBurnMeta(meta: Metadata | null): Metadata {
  const burned = meta?.values.get(META.burned);
  return { values: new Map(burned === undefined ? [] : [[META.burned, burned]]) };
}

export interface PreparedTwoStep {
  readonly lockedAmulet: string;
  readonly senderChangeCids: string[];
  readonly meta: Metadata;
}

/** Step one: lock amount + fee reserve for the sender with the DSO as holder until the deadline. */
export async function prepareTwoStepTransfer(
  ctx: UpdateContext,
  tst: TwoStepTransfer,
  requestedAt: bigint,
  inputHoldingCids: readonly string[],
  payment: PaymentTransferContext,
): Promise<PreparedTwoStep> {
  ctx.require(requestedAt < tst.transferBefore, "requestedAt < transferBefore");
  const round = await ctx.fetch(OpenMiningRound, payment.context.openMiningRound);
  const reserve = twoStepFeeReserve(round, tst.amount, tst.transferBefore - requestedAt);
  const inputs = await holdingsToTransferInputs(ctx, tst.dso, tst.sender, payment, inputHoldingCids);
  const result = await exercisePaymentTransfer(ctx, payment, {
    sender: tst.sender,
    provider: tst.sender,
    inputs,
    outputs: [
      {
        receiver: tst.sender,
        receiverFeeRatio: Numeric.zero,
        amount: tst.amount.add(reserve),
        lock: { holders: [tst.dso], expiresAt: tst.transferBefore, optContext: tst.lockContext },
      },
    ],
    beneficiaries: null,
  });
  const [locked] = result.createdAmulets;
  ctx.require(locked?.tag === "TransferResultLockedAmulet", "the transfer created exactly one LockedAmulet");
  return { lockedAmulet: locked.value, senderChangeCids: senderChangeOf(result), meta: onlyBurnMeta(result.meta) };
}

export interface ExecutedTwoStep {
  readonly senderChangeCids: string[];
  readonly receiverHoldingCids: string[];
  readonly meta: Metadata;
}

/** Step two: before the deadline, unlock and transfer `amount` to the receiver; the provider earns the app reward (featured if allowed). */
export async function executeTwoStepTransfer(ctx: UpdateContext, tst: TwoStepTransfer, lockedAmulet: string, extraArgs: ExtraArgs): Promise<ExecutedTwoStep> {
  assertWithinDeadline(ctx, tst.transferBeforeDeadline, tst.transferBefore);
  const payment = await paymentContextFrom(ctx, tst.dso, extraArgs.context, tst.allowFeaturing);
  const unlocked = await ctx.exercise(LockedAmulet, lockedAmulet, LockedAmulet_Unlock, { openRoundCid: payment.context.openMiningRound });
  const result = await exercisePaymentTransfer(ctx, payment, {
    sender: tst.sender,
    provider: tst.provider,
    inputs: [{ tag: "InputAmulet", value: unlocked.amuletSum.amulet }],
    outputs: [{ receiver: tst.receiver, receiverFeeRatio: Numeric.zero, amount: tst.amount, lock: null }],
    beneficiaries: null,
  });
  return {
    senderChangeCids: senderChangeOf(result),
    receiverHoldingCids: result.createdAmulets.map(createdAmuletToHolding),
    meta: onlyBurnMeta(result.meta),
  };
}

/**
 * Abort: unlock back to the sender when the registry says the LockedAmulet still exists
 * (`expire-lock` true); otherwise it is already gone (the owner expired the lock after the
 * deadline) and there is nothing to return, which is only acceptable past the deadline.
 */
export async function abortTwoStepTransfer(ctx: UpdateContext, tst: TwoStepTransfer, lockedAmulet: string, extraArgs: ExtraArgs): Promise<string[]> {
  if (!getContextBool(ctx, extraArgs.context, CONTEXT_KEYS.expireLock)) {
    assertDeadlineExceeded(ctx, tst.transferBeforeDeadline, tst.transferBefore);
    return [];
  }
  const openRoundCid = getContextContractId(ctx, extraArgs.context, CONTEXT_KEYS.openRound);
  const round = await ctx.fetch(OpenMiningRound, openRoundCid);
  ctx.require(round.dso === tst.dso, `OpenMiningRound ${openRoundCid} belongs to the DSO ${tst.dso}`);
  const result = await ctx.exercise(LockedAmulet, lockedAmulet, LockedAmulet_Unlock, { openRoundCid });
  return [result.amuletSum.amulet];
}
