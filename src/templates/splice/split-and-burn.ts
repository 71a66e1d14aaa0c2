/**
 * Splice's `splitAndBurn`: pay a fee by splitting it off the payer's inputs in a self-transfer and
 * archiving the split, then record the whole burn as the payer's validator activity.
 * Preapproval fees, setup proposals and traffic purchases are paid this way.
 */
import { Numeric } from "../../ledger/numeric.js";
import type { UpdateContext } from "../../ledger/template.js";
import { Amulet, ValidatorRewardCoupon } from "./amulet.js";
import { executeTransfer } from "./execute-transfer.js";
import { mergeMeta, txMeta } from "./metadata.js";
import type { TransferContext, TransferInput, TransferResult } from "./transfer-types.js";
import type { Metadata } from "./types.js";
import { updated } from "../../util/extend.js";

export interface BurnResult {
  readonly transferResult: TransferResult;
  readonly meta: Metadata;
}

export async function splitAndBurn(
  ctx: UpdateContext,
  payer: string,
  amount: Numeric,
  inputs: readonly TransferInput[],
  context: TransferContext,
  dso: string,
  usage: string,
): Promise<BurnResult> {
  const result = await executeTransfer(ctx, { issueAppRewards: false, issueValidatorRewards: false }, context, dso, {
    sender: payer,
    provider: payer,
    inputs: [...inputs],
    outputs: [{ receiver: payer, receiverFeeRatio: Numeric.zero, amount, lock: null }],
    beneficiaries: null,
  });
  const split = result.createdAmulets[0];
  ctx.require(split?.tag === "TransferResultAmulet", "the fee was split off as one amulet");
  const burnt = await ctx.fetch(Amulet, split.value);
  await ctx.archive(Amulet, split.value);
  const outputFees = result.summary.outputFees.reduce((a, b) => a.add(b), Numeric.zero);
  await ctx.create(ValidatorRewardCoupon, { dso, round: result.round, user: payer, amount: amount.add(outputFees) });
  const asOfRound0 = burnt.amount.initialAmount.add(burnt.amount.ratePerRound.rate.mulInt(burnt.amount.createdAt.number));
  const balanceChanges = result.summary.balanceChanges.map(([party, c]) =>
    party === payer
      ? ([party, { changeToInitialAmountAsOfRoundZero: c.changeToInitialAmountAsOfRoundZero.sub(asOfRound0), changeToHoldingFeesRate: c.changeToHoldingFeesRate.sub(burnt.amount.ratePerRound.rate) }] as const)
      : ([party, c] as const),
  );
  const totalBurn = outputFees.add(result.summary.holdingFees).add(result.summary.senderChangeFee).add(amount);
  return {
    transferResult: updated(result, { meta: null, summary: updated(result.summary, { balanceChanges: balanceChanges.map(([p, c]): [string, typeof c] => [p, c]) }) }),
    meta: mergeMeta(result.meta, txMeta("burn", { reason: usage, burned: totalBurn })),
  };
}
