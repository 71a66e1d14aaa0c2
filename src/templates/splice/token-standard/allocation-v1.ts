/**
 * The token standard's allocation interfaces (Splice.Api.Token.AllocationV1,
 * AllocationInstructionV1, AllocationRequestV1) with their views as Splice defines them. No CC
 * template implements them yet, but like any vetted package they are known: wallets (the SDK's
 * token.holdings) filter on them, and such a filter is valid and matches nothing. Their choices
 * (AllocationFactory_Allocate, Allocation_ExecuteTransfer/Withdraw/Cancel) come with the
 * allocation implementation.
 */
import { t, type ValueOf } from "../../../ledger/daml-type.js";
import { defineInterface, type InterfaceDef } from "../../../ledger/template.js";
import { spliceName, spliceType } from "../packages.js";
import { InstrumentId, Metadata } from "../types.js";

const ALLOCATION = "Splice.Api.Token.AllocationV1";
const INSTRUCTION = "Splice.Api.Token.AllocationInstructionV1";
const REQUEST = "Splice.Api.Token.AllocationRequestV1";

export const Reference = t.record({ id: t.text, cid: t.optional(t.contractId) }, spliceType("allocationV1", ALLOCATION, "Reference"));

export const SettlementInfo = t.record(
  { executor: t.party, settlementRef: Reference, requestedAt: t.time, allocateBefore: t.time, settleBefore: t.time, meta: Metadata },
  spliceType("allocationV1", ALLOCATION, "SettlementInfo"),
);

export const TransferLeg = t.record(
  { sender: t.party, receiver: t.party, amount: t.numeric(), instrumentId: InstrumentId, meta: Metadata },
  spliceType("allocationV1", ALLOCATION, "TransferLeg"),
);

export const AllocationSpecification = t.record(
  { settlement: SettlementInfo, transferLegId: t.text, transferLeg: TransferLeg },
  spliceType("allocationV1", ALLOCATION, "AllocationSpecification"),
);

export const AllocationView = t.record(
  { allocation: AllocationSpecification, holdingCids: t.list(t.contractId), meta: Metadata },
  spliceType("allocationV1", ALLOCATION, "AllocationView"),
);
export type AllocationView = ValueOf<typeof AllocationView>;

export const AllocationFactoryView = t.record({ admin: t.party, meta: Metadata }, spliceType("allocationInstructionV1", INSTRUCTION, "AllocationFactoryView"));
export type AllocationFactoryView = ValueOf<typeof AllocationFactoryView>;

export const AllocationInstructionView = t.record(
  {
    originalInstructionCid: t.optional(t.contractId),
    allocation: AllocationSpecification,
    pendingActions: t.genMap(t.party, t.text),
    requestedAt: t.time,
    inputHoldingCids: t.list(t.contractId),
    meta: Metadata,
  },
  spliceType("allocationInstructionV1", INSTRUCTION, "AllocationInstructionView"),
);
export type AllocationInstructionView = ValueOf<typeof AllocationInstructionView>;

export const AllocationRequestView = t.record(
  { settlement: SettlementInfo, transferLegs: t.textMap(TransferLeg), meta: Metadata },
  spliceType("allocationRequestV1", REQUEST, "AllocationRequestView"),
);
export type AllocationRequestView = ValueOf<typeof AllocationRequestView>;

export const Allocation = defineInterface<AllocationView>({ id: spliceName("allocationV1", ALLOCATION, "Allocation"), view: AllocationView });
export const AllocationFactory = defineInterface<AllocationFactoryView>({
  id: spliceName("allocationInstructionV1", INSTRUCTION, "AllocationFactory"),
  view: AllocationFactoryView,
});
export const AllocationInstruction = defineInterface<AllocationInstructionView>({
  id: spliceName("allocationInstructionV1", INSTRUCTION, "AllocationInstruction"),
  view: AllocationInstructionView,
});
export const AllocationRequest = defineInterface<AllocationRequestView>({
  id: spliceName("allocationRequestV1", REQUEST, "AllocationRequest"),
  view: AllocationRequestView,
});

/** The allocation interfaces, registered on their own until templates implement them. */
export const allocationInterfaces: readonly InterfaceDef<unknown>[] = [Allocation, AllocationFactory, AllocationInstruction, AllocationRequest] as readonly InterfaceDef<never>[];
