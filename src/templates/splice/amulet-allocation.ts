/**
 * `Splice.AmuletAllocation:AmuletAllocation`: CC allocated to one leg of a settlement. The
 * sender's CC sits in a LockedAmulet held by the DSO until `settleBefore`; the executor settles
 * (the CC moves to the receiver, the executor earns the app reward), the sender withdraws or the
 * executor cancels (with the sender and receiver: the 1.0.0 controllers), both unlocking it back.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { defineTemplate, type ContractRef, type Template, type UpdateContext } from "../../ledger/template.js";
import { spliceName } from "./packages.js";
import { emptyMetadata } from "./types.js";
import {
  Allocation,
  AllocationSpecification,
  type AllocationChoiceArg,
  type Allocation_ExecuteTransferResult,
  type Allocation_UnlockResult,
  type AllocationView,
} from "./token-standard/allocation-v1.js";
import { abortTwoStepTransfer, executeTwoStepTransfer, type TwoStepTransfer } from "./token-standard/two-step-transfer.js";

const payload = t.record({ lockedAmulet: t.contractId, allocation: AllocationSpecification });
export type AmuletAllocationPayload = ValueOf<typeof payload>;

/** Splice `allocationToTwoStepTransfer`. */
export function allocationToTwoStepTransfer(allocation: AllocationSpecification): TwoStepTransfer {
  const { settlement, transferLeg, transferLegId } = allocation;
  return {
    dso: transferLeg.instrumentId.admin,
    sender: transferLeg.sender,
    receiver: transferLeg.receiver,
    amount: transferLeg.amount,
    provider: settlement.executor,
    allowFeaturing: true,
    transferBefore: settlement.settleBefore,
    transferBeforeDeadline: "allocation.settlement.settleBefore",
    // Daml's `show` of the leg id (a Text) and of the receiver party, as Splice writes the lock context.
    lockContext: `allocation for transfer leg ${JSON.stringify(transferLegId)} to '${transferLeg.receiver}'`,
  };
}

const view = (p: AmuletAllocationPayload): AllocationView => ({ allocation: p.allocation, holdingCids: [p.lockedAmulet], meta: emptyMetadata() });

async function executeTransfer(ctx: UpdateContext, self: ContractRef<AmuletAllocationPayload>, arg: AllocationChoiceArg): Promise<Allocation_ExecuteTransferResult> {
  const { lockedAmulet, allocation } = self.payload;
  const done = await executeTwoStepTransfer(ctx, allocationToTwoStepTransfer(allocation), lockedAmulet, arg.extraArgs);
  return { senderHoldingCids: done.senderChangeCids, receiverHoldingCids: done.receiverHoldingCids, meta: done.meta };
}

/** Withdraw and cancel: the CC goes back to the sender. */
async function unlock(ctx: UpdateContext, self: ContractRef<AmuletAllocationPayload>, arg: AllocationChoiceArg): Promise<Allocation_UnlockResult> {
  const { lockedAmulet, allocation } = self.payload;
  const senderHoldingCids = await abortTwoStepTransfer(ctx, allocationToTwoStepTransfer(allocation), lockedAmulet, arg.extraArgs);
  return { senderHoldingCids, meta: emptyMetadata() };
}

export const AmuletAllocation: Template<AmuletAllocationPayload> = defineTemplate<AmuletAllocationPayload>({
  id: spliceName("amulet", "Splice.AmuletAllocation", "AmuletAllocation"),
  payload,
  signatories: (p) => [p.allocation.transferLeg.instrumentId.admin, p.allocation.transferLeg.sender],
  observers: (p) => [p.allocation.settlement.executor],
  interfaces: [
    {
      iface: Allocation,
      view,
      choices: { Allocation_ExecuteTransfer: executeTransfer, Allocation_Withdraw: unlock, Allocation_Cancel: unlock },
    },
  ],
});
