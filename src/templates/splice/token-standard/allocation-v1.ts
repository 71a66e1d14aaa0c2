/**
 * The token standard's allocation API (package `splice-api-token-allocation-v1`, module
 * `Splice.Api.Token.AllocationV1`) in its released 1.0.0 shape: the data of a settlement leg and
 * the `Allocation` interface with its three choices. Like the transfer API, only the interface
 * lives here; CC's `AmuletAllocation` (created by `ExternalPartyAmuletRules` as
 * `AllocationFactory`, allocation-instruction-v1.ts) supplies the bodies. In 1.0.0 all three
 * choices are consuming: an allocation settles, returns or is cancelled exactly once.
 */
import { t, type DamlType, type ValueOf } from "../../../ledger/daml-type.js";
import { defineInterface, type InterfaceChoice } from "../../../ledger/template.js";
import { spliceName, spliceType } from "../packages.js";
import { ExtraArgs, InstrumentId, Metadata } from "../types.js";

const MODULE = "Splice.Api.Token.AllocationV1";
const ty = (entity: string) => spliceType("allocationV1", MODULE, entity);

export const Reference = t.record({ id: t.text, cid: t.optional(t.contractId) }, ty("Reference"));

export const SettlementInfo = t.record(
  { executor: t.party, settlementRef: Reference, requestedAt: t.time, allocateBefore: t.time, settleBefore: t.time, meta: Metadata },
  ty("SettlementInfo"),
);

export const TransferLeg = t.record({ sender: t.party, receiver: t.party, amount: t.numeric(), instrumentId: InstrumentId, meta: Metadata }, ty("TransferLeg"));

export const AllocationSpecification = t.record({ settlement: SettlementInfo, transferLegId: t.text, transferLeg: TransferLeg }, ty("AllocationSpecification"));
export type AllocationSpecification = ValueOf<typeof AllocationSpecification>;

export const AllocationView = t.record({ allocation: AllocationSpecification, holdingCids: t.list(t.contractId), meta: Metadata }, ty("AllocationView"));
export type AllocationView = ValueOf<typeof AllocationView>;

// Choices
// -------

export const Allocation_ExecuteTransfer = t.record({ extraArgs: ExtraArgs }, ty("Allocation_ExecuteTransfer"));
export const Allocation_Withdraw = t.record({ extraArgs: ExtraArgs }, ty("Allocation_Withdraw"));
export const Allocation_Cancel = t.record({ extraArgs: ExtraArgs }, ty("Allocation_Cancel"));
export type AllocationChoiceArg = ValueOf<typeof Allocation_ExecuteTransfer>;

export const Allocation_ExecuteTransferResult = t.record(
  { senderHoldingCids: t.list(t.contractId), receiverHoldingCids: t.list(t.contractId), meta: Metadata },
  ty("Allocation_ExecuteTransferResult"),
);
export type Allocation_ExecuteTransferResult = ValueOf<typeof Allocation_ExecuteTransferResult>;
export const Allocation_WithdrawResult = t.record({ senderHoldingCids: t.list(t.contractId), meta: Metadata }, ty("Allocation_WithdrawResult"));
export const Allocation_CancelResult = t.record({ senderHoldingCids: t.list(t.contractId), meta: Metadata }, ty("Allocation_CancelResult"));
/** Withdraw and cancel return the same shape. */
export type Allocation_UnlockResult = ValueOf<typeof Allocation_WithdrawResult>;

/** Daml `allocationControllers`: settling or cancelling needs the executor and both sides of the leg. */
export const allocationControllers = (v: AllocationView): string[] => [
  v.allocation.settlement.executor,
  v.allocation.transferLeg.sender,
  v.allocation.transferLeg.receiver,
];

const allocationChoice = (name: string, argument: DamlType, result: DamlType, controllers: (v: AllocationView) => string[]): InterfaceChoice<AllocationView, AllocationChoiceArg> => ({
  name,
  consuming: true,
  argument,
  result,
  controllers,
});

export const AllocationChoices = {
  executeTransfer: allocationChoice("Allocation_ExecuteTransfer", Allocation_ExecuteTransfer, Allocation_ExecuteTransferResult, allocationControllers),
  withdraw: allocationChoice("Allocation_Withdraw", Allocation_Withdraw, Allocation_WithdrawResult, (v) => [v.allocation.transferLeg.sender]),
  cancel: allocationChoice("Allocation_Cancel", Allocation_Cancel, Allocation_CancelResult, allocationControllers),
} as const;

export const Allocation = defineInterface<AllocationView>({
  id: spliceName("allocationV1", MODULE, "Allocation"),
  view: AllocationView,
  choices: Object.values(AllocationChoices) as InterfaceChoice<AllocationView, never, unknown>[],
});
