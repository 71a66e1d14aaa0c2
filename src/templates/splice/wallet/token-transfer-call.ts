/**
 * One token-standard `TransferFactory_Transfer` call made on a user's behalf (what a
 * `MergeDelegation` runs). The data types are the token standard's (splice-api-token-transfer-
 * instruction-v1) with its field names.
 *
 * `runTransferCall` performs the transfer directly with `AmuletRules_Transfer` (inputs are the
 * holdings, one output of `amount` to the receiver, change to the sender), which is what the CC
 * factory does for a merge; exercising the factory's `TransferFactory_Transfer` instead is a
 * possible later step.
 */
import type { ValueOf } from "../../../ledger/daml-type.js";
import { Numeric } from "../../../ledger/numeric.js";
import type { UpdateContext } from "../../../ledger/template.js";
import { AppRewardBeneficiary, simpleTransferContext, type TransferResult } from "../transfer-types.js";
import type { AnyValueV, ChoiceContext } from "../types.js";
import type { TransferFactory_Transfer, TransferInstructionResult } from "../token-standard/transfer-instruction-v1.js";
import { exerciseTransfer, fetchRules } from "./payment-transfer.js";

// The token standard's own data types, under the names this module has always exported.
export {
  Transfer as TokenTransfer,
  TransferFactory_Transfer as TransferFactoryTransferArg,
  TransferInstructionResult,
} from "../token-standard/transfer-instruction-v1.js";

/** A featured app's right to earn the app rewards of the transfer, split among beneficiaries. */
export interface FeaturedProvider {
  readonly provider: string;
  readonly appRightCid: string;
  readonly beneficiaries: ValueOf<typeof AppRewardBeneficiary>[];
}

function contextCid(context: ChoiceContext, key: string): string | undefined {
  const v: AnyValueV | undefined = context.values.get(key);
  return v?.tag === "AV_ContractId" ? v.value : undefined;
}

/** Runs `TransferFactory_Transfer` as `call.choiceArg.transfer.sender` (see the file comment). */
export async function runTransferCall(
  ctx: UpdateContext,
  call: { factoryCid: string; choiceArg: TransferFactory_Transfer },
  featured: FeaturedProvider | null,
): Promise<TransferInstructionResult> {
  const { expectedAdmin, transfer, extraArgs } = call.choiceArg;
  ctx.require(transfer.instrumentId.admin === expectedAdmin && transfer.instrumentId.id === "Amulet", `instrument ${transfer.instrumentId.id} of ${transfer.instrumentId.admin} is Amulet of ${expectedAdmin}`);
  ctx.require(ctx.isLedgerTimeGE(transfer.requestedAt), "requestedAt is not in the future");
  ctx.require(ctx.isLedgerTimeLT(transfer.executeBefore), "executeBefore is in the future");
  ctx.require(transfer.amount.isPositive(), "Transfer amount must be positive");
  const rulesCid = contextCid(extraArgs.context, "amulet-rules") ?? call.factoryCid;
  const openRound = contextCid(extraArgs.context, "open-round");
  if (!openRound) ctx.require(false, `Missing context entry for: open-round`);
  await fetchRules(ctx, expectedAdmin, rulesCid, transfer.sender);
  const result: TransferResult = await exerciseTransfer(ctx, rulesCid, simpleTransferContext(openRound!, featured?.appRightCid ?? null), {
    sender: transfer.sender,
    provider: featured?.provider ?? transfer.sender,
    inputs: transfer.inputHoldingCids.map((cid) => ({ tag: "InputAmulet" as const, value: cid })),
    outputs: [{ receiver: transfer.receiver, amount: transfer.amount, lock: null, receiverFeeRatio: Numeric.zero }],
    beneficiaries: featured ? featured.beneficiaries : null,
  });
  const receiverHoldingCids = result.createdAmulets.map((c) => c.value);
  return {
    output: { tag: "TransferInstructionResult_Completed", value: { receiverHoldingCids } },
    senderChangeCids: result.senderChangeAmulet ? [result.senderChangeAmulet] : [],
    meta: result.meta ?? { values: new Map() },
  };
}
