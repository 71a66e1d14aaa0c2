/**
 * CC's `TransferFactory_Transfer` (Splice `amulet_transferFactory_transferImpl`): validate the
 * standard transfer, then run it as one of three kinds: a self-transfer (merge/split), a direct
 * transfer through the receiver's `TransferPreapproval` given in the choice context, or an offer
 * that locks the CC and creates an `AmuletTransferInstruction` for the receiver to accept.
 */
import { Numeric } from "../../../ledger/numeric.js";
import type { UpdateContext } from "../../../ledger/template.js";
import { AmuletTransferInstruction, twoStepTransferOf } from "../amulet-transfer-instruction.js";
import { mergeMeta } from "../metadata.js";
import { TransferPreapproval, TransferPreapproval_Send } from "../transfer-preapproval.js";
import type { TransferResult } from "../transfer-types.js";
import { amuletInstrumentId, emptyMetadata, type Metadata } from "../types.js";
import { createdAmuletToHolding, exercisePaymentTransfer, holdingsToTransferInputs, paymentContextFrom, senderChangeOf } from "./amulet-payments.js";
import { CONTEXT_KEYS, lookupContextContractId } from "./choice-context.js";
import { instructionResult, type TransferFactory_Transfer, type TransferInstructionResult } from "./transfer-instruction-v1.js";
import { prepareTwoStepTransfer } from "./two-step-transfer.js";
import { assertDeadlineExceeded, assertWithinDeadline } from "../../../ledger/deadlines.js";
import { updated } from "../../../util/extend.js";

export function requireExpectedAdmin(ctx: UpdateContext, expected: string, actual: string): void {
  ctx.require(expected === actual, `Expected admin ${expected} matches actual admin ${actual}`);
}

export async function amuletTransferFactoryTransfer(ctx: UpdateContext, dso: string, arg: TransferFactory_Transfer): Promise<TransferInstructionResult> {
  const { transfer, extraArgs } = arg;
  requireExpectedAdmin(ctx, arg.expectedAdmin, dso);
  const preapprovalCid = lookupContextContractId(ctx, extraArgs.context, CONTEXT_KEYS.transferPreapproval);
  if (preapprovalCid) {
    const pre = await ctx.fetch(TransferPreapproval, preapprovalCid);
    ctx.require(pre.dso === dso && pre.receiver === transfer.receiver, `TransferPreapproval ${preapprovalCid} is the receiver's under this DSO`);
  }
  const expected = amuletInstrumentId(dso);
  ctx.require(
    transfer.instrumentId.admin === expected.admin && transfer.instrumentId.id === expected.id,
    `Expected instrumentId ${expected.admin}/${expected.id} matches actual instrumentId ${transfer.instrumentId.admin}/${transfer.instrumentId.id}`,
  );
  ctx.require(transfer.amount.isPositive(), "Amount must be positive");
  assertDeadlineExceeded(ctx, "Transfer.requestedAt", transfer.requestedAt);
  assertWithinDeadline(ctx, "Transfer.executeBefore", transfer.executeBefore);
  ctx.require(transfer.inputHoldingCids.length > 0, "At least one holding must be provided");
  if (preapprovalCid) return directTransfer(ctx, dso, arg, preapprovalCid);
  if (transfer.receiver === transfer.sender) return selfTransfer(ctx, dso, arg);
  return offerTransfer(ctx, dso, arg);
}

const completed = (result: TransferResult, meta: Metadata): TransferInstructionResult =>
  instructionResult.completed(result.createdAmulets.map(createdAmuletToHolding), senderChangeOf(result), meta);

async function selfTransfer(ctx: UpdateContext, dso: string, { transfer, extraArgs }: TransferFactory_Transfer): Promise<TransferInstructionResult> {
  const payment = await paymentContextFrom(ctx, dso, extraArgs.context, false);
  const inputs = await holdingsToTransferInputs(ctx, dso, transfer.sender, payment, transfer.inputHoldingCids);
  const result = await exercisePaymentTransfer(ctx, payment, {
    sender: transfer.sender,
    provider: transfer.sender,
    inputs,
    outputs: [{ receiver: transfer.sender, receiverFeeRatio: Numeric.zero, amount: transfer.amount, lock: null }],
    beneficiaries: null,
  });
  return completed(result, result.meta ?? emptyMetadata());
}

/** One step, as `TransferPreapproval_Send`: the provider may be featured, so its right is used. */
async function directTransfer(ctx: UpdateContext, dso: string, { transfer, extraArgs }: TransferFactory_Transfer, preapprovalCid: string): Promise<TransferInstructionResult> {
  const payment = await paymentContextFrom(ctx, dso, extraArgs.context, true);
  const inputs = await holdingsToTransferInputs(ctx, dso, transfer.sender, payment, transfer.inputHoldingCids);
  const sent = (await ctx.exercise(TransferPreapproval, preapprovalCid, TransferPreapproval_Send, {
    context: payment,
    inputs,
    amount: transfer.amount,
    sender: transfer.sender,
    description: null,
  })) as { result: TransferResult; meta: Metadata | null };
  return completed(sent.result, mergeMeta(sent.meta, transfer.meta));
}

async function offerTransfer(ctx: UpdateContext, dso: string, { transfer, extraArgs }: TransferFactory_Transfer): Promise<TransferInstructionResult> {
  const payment = await paymentContextFrom(ctx, dso, extraArgs.context, false);
  const prepared = await prepareTwoStepTransfer(ctx, twoStepTransferOf(transfer), transfer.requestedAt, transfer.inputHoldingCids, payment);
  // The instruction reports the locked holding that backs it as its input.
  const instructionCid = await ctx.create(AmuletTransferInstruction, {
    lockedAmulet: prepared.lockedAmulet,
    transfer: updated(transfer, { inputHoldingCids: [prepared.lockedAmulet] }),
  });
  return instructionResult.pending(instructionCid, prepared.senderChangeCids, prepared.meta);
}
