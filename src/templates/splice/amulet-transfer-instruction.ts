/**
 * `Splice.AmuletTransferInstruction:AmuletTransferInstruction`: a token-standard CC transfer
 * offered to a receiver without a preapproval. The sender's CC sits in a LockedAmulet held by
 * the DSO until `executeBefore`. The receiver accepts (the CC moves) or rejects, the sender
 * withdraws (both unlock it back), and past the deadline the DSO expires it through
 * `TransferInstruction_Update` (Splice's `ExpiredAmuletTransferInstructionTrigger`).
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { defineTemplate, type ContractRef, type Template, type UpdateContext } from "../../ledger/template.js";
import { emptyMetadata, type ExtraArgs } from "./types.js";
import { spliceName } from "./packages.js";
import {
  instructionResult,
  Transfer,
  TransferInstruction,
  type ExtraArgsArg,
  type TransferInstruction_Update,
  type TransferInstructionResult,
  type TransferInstructionView,
} from "./token-standard/transfer-instruction-v1.js";
import { abortTwoStepTransfer, executeTwoStepTransfer, type TwoStepTransfer } from "./token-standard/two-step-transfer.js";
import { assertDeadlineExceeded } from "../../ledger/deadlines.js";

const payload = t.record({ lockedAmulet: t.contractId, transfer: Transfer });
export type AmuletTransferInstructionPayload = ValueOf<typeof payload>;

/** Splice `standardTransferToTwoStepTransfer`. */
export function twoStepTransferOf(transfer: Transfer): TwoStepTransfer {
  return {
    dso: transfer.instrumentId.admin,
    sender: transfer.sender,
    receiver: transfer.receiver,
    amount: transfer.amount,
    provider: transfer.sender,
    allowFeaturing: false,
    transferBefore: transfer.executeBefore,
    transferBeforeDeadline: "Transfer.executeBefore",
    // Daml's `show` of a party, as the lock context Splice writes.
    lockContext: `transfer to '${transfer.receiver}'`,
  };
}

const view = (p: AmuletTransferInstructionPayload): TransferInstructionView => ({
  originalInstructionCid: null,
  transfer: p.transfer,
  status: { tag: "TransferPendingReceiverAcceptance", value: {} },
  meta: emptyMetadata(),
});

async function accept(ctx: UpdateContext, self: ContractRef<AmuletTransferInstructionPayload>, arg: ExtraArgsArg): Promise<TransferInstructionResult> {
  const { lockedAmulet, transfer } = self.payload;
  const done = await executeTwoStepTransfer(ctx, twoStepTransferOf(transfer), lockedAmulet, arg.extraArgs);
  return instructionResult.completed(done.receiverHoldingCids, done.senderChangeCids, done.meta);
}

async function abort(ctx: UpdateContext, self: ContractRef<AmuletTransferInstructionPayload>, extraArgs: ExtraArgs): Promise<TransferInstructionResult> {
  const { lockedAmulet, transfer } = self.payload;
  const senderChangeCids = await abortTwoStepTransfer(ctx, twoStepTransferOf(transfer), lockedAmulet, extraArgs);
  return instructionResult.failed(senderChangeCids, emptyMetadata());
}

/** The registry's expiry: only without extra actors, only once the deadline has passed. */
async function expire(ctx: UpdateContext, self: ContractRef<AmuletTransferInstructionPayload>, arg: TransferInstruction_Update): Promise<TransferInstructionResult> {
  ctx.require(arg.extraActors.length === 0, "No extra actors on transfer expiry");
  assertDeadlineExceeded(ctx, "Transfer.executeBefore", self.payload.transfer.executeBefore);
  return abort(ctx, self, arg.extraArgs);
}

export const AmuletTransferInstruction: Template<AmuletTransferInstructionPayload> = defineTemplate<AmuletTransferInstructionPayload>({
  id: spliceName("amulet", "Splice.AmuletTransferInstruction", "AmuletTransferInstruction"),
  payload,
  signatories: (p) => [p.transfer.instrumentId.admin, p.transfer.sender],
  observers: (p) => [p.transfer.receiver],
  interfaces: [
    {
      iface: TransferInstruction,
      view,
      choices: {
        TransferInstruction_Accept: accept,
        TransferInstruction_Reject: (ctx: UpdateContext, self: ContractRef<AmuletTransferInstructionPayload>, arg: ExtraArgsArg) => abort(ctx, self, arg.extraArgs),
        TransferInstruction_Withdraw: (ctx: UpdateContext, self: ContractRef<AmuletTransferInstructionPayload>, arg: ExtraArgsArg) => abort(ctx, self, arg.extraArgs),
        TransferInstruction_Update: expire,
      },
    },
  ],
});
