/**
 * CC's `AllocationFactory_Allocate` (Splice `amulet_allocationFactory_allocateImpl`, 1.0.0):
 * validate the allocation, lock the sender's CC for the leg's amount (plus the fee reserve) until
 * `settleBefore` as step one of a two-step transfer, and create the `AmuletAllocation` tracking
 * it. CC allocates in one step, so the result is always `Completed`.
 */
import type { UpdateContext } from "../../../ledger/template.js";
import { AmuletAllocation, allocationToTwoStepTransfer } from "../amulet-allocation.js";
import { amuletInstrumentId } from "../types.js";
import type { AllocationFactory_Allocate, AllocationInstructionResult } from "./allocation-instruction-v1.js";
import { paymentContextFrom } from "./amulet-payments.js";
import { requireExpectedAdmin } from "./amulet-transfer-factory.js";
import { prepareTwoStepTransfer } from "./two-step-transfer.js";
import { assertDeadlineExceeded, assertWithinDeadline } from "../../../ledger/deadlines.js";

/** The field-by-field checks of the allocation, in Splice's order and with its messages. */
function validateAllocation(ctx: UpdateContext, dso: string, arg: AllocationFactory_Allocate): void {
  const { settlement, transferLeg } = arg.allocation;
  // settlement.executor, settlementRef, transferLegId, the leg's sender (the controller), receiver and meta: no check.
  assertDeadlineExceeded(ctx, "settlement.requestedAt", settlement.requestedAt);
  assertWithinDeadline(ctx, "settlement.allocateBefore", settlement.allocateBefore);
  ctx.require(settlement.allocateBefore <= settlement.settleBefore, "settlement.allocateBefore <= settlement.settleBefore");
  ctx.require(transferLeg.amount.isPositive(), "Transfer amount must be positive");
  const expected = amuletInstrumentId(dso);
  ctx.require(
    transferLeg.instrumentId.admin === expected.admin && transferLeg.instrumentId.id === expected.id,
    `Expected instrumentId ${expected.admin}/${expected.id} matches actual instrumentId ${transferLeg.instrumentId.admin}/${transferLeg.instrumentId.id}`,
  );
  assertDeadlineExceeded(ctx, "requestedAt", arg.requestedAt);
  ctx.require(arg.inputHoldingCids.length > 0, "At least one holding must be provided");
}

export async function amuletAllocationFactoryAllocate(ctx: UpdateContext, dso: string, arg: AllocationFactory_Allocate): Promise<AllocationInstructionResult> {
  requireExpectedAdmin(ctx, arg.expectedAdmin, dso);
  validateAllocation(ctx, dso, arg);
  // Locking to oneself earns no app reward, so the payment context is unfeatured.
  const payment = await paymentContextFrom(ctx, dso, arg.extraArgs.context, false);
  const prepared = await prepareTwoStepTransfer(ctx, allocationToTwoStepTransfer(arg.allocation), arg.requestedAt, arg.inputHoldingCids, payment);
  const allocationCid = await ctx.create(AmuletAllocation, { lockedAmulet: prepared.lockedAmulet, allocation: arg.allocation });
  return { output: { tag: "AllocationInstructionResult_Completed", value: { allocationCid } }, senderChangeCids: prepared.senderChangeCids, meta: prepared.meta };
}
