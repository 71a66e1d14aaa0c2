/**
 * The token standard's allocation-instruction API (package
 * `splice-api-token-allocation-instruction-v1`, 1.0.0): an `AllocationFactory` a sender exercises
 * to allocate holdings to a settlement leg, and an `AllocationInstruction` for registries that
 * need further steps. CC allocates in one step (the result is `Completed`), so no CC template
 * implements `AllocationInstruction`; it stays known so filters on it are valid.
 */
import { t, type ValueOf } from "../../../ledger/daml-type.js";
import { defineInterface, type InterfaceChoice } from "../../../ledger/template.js";
import { spliceName, spliceType } from "../packages.js";
import { ExtraArgs, Metadata } from "../types.js";
import { AllocationSpecification } from "./allocation-v1.js";

const MODULE = "Splice.Api.Token.AllocationInstructionV1";
const ty = (entity: string) => spliceType("allocationInstructionV1", MODULE, entity);
const ctorRecord = (variant: string, ctor: string) => ty(`${variant}.${ctor}`);

export const AllocationFactoryView = t.record({ admin: t.party, meta: Metadata }, ty("AllocationFactoryView"));
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
  ty("AllocationInstructionView"),
);
export type AllocationInstructionView = ValueOf<typeof AllocationInstructionView>;

export const AllocationInstructionResult_Output = t.variant(
  {
    AllocationInstructionResult_Pending: t.record(
      { allocationInstructionCid: t.contractId },
      ctorRecord("AllocationInstructionResult_Output", "AllocationInstructionResult_Pending"),
    ),
    AllocationInstructionResult_Completed: t.record({ allocationCid: t.contractId }, ctorRecord("AllocationInstructionResult_Output", "AllocationInstructionResult_Completed")),
    AllocationInstructionResult_Failed: t.unit,
  },
  ty("AllocationInstructionResult_Output"),
);

export const AllocationInstructionResult = t.record(
  { output: AllocationInstructionResult_Output, senderChangeCids: t.list(t.contractId), meta: Metadata },
  ty("AllocationInstructionResult"),
);
export type AllocationInstructionResult = ValueOf<typeof AllocationInstructionResult>;

// AllocationFactory
// -----------------

export const AllocationFactory_Allocate = t.record(
  { expectedAdmin: t.party, allocation: AllocationSpecification, requestedAt: t.time, inputHoldingCids: t.list(t.contractId), extraArgs: ExtraArgs },
  ty("AllocationFactory_Allocate"),
);
export type AllocationFactory_Allocate = ValueOf<typeof AllocationFactory_Allocate>;
export const AllocationFactory_PublicFetch = t.record({ expectedAdmin: t.party, actor: t.party }, ty("AllocationFactory_PublicFetch"));
export type AllocationFactory_PublicFetch = ValueOf<typeof AllocationFactory_PublicFetch>;

const allocateChoice: InterfaceChoice<AllocationFactoryView, AllocationFactory_Allocate, AllocationInstructionResult> = {
  name: "AllocationFactory_Allocate",
  consuming: false,
  argument: AllocationFactory_Allocate,
  result: AllocationInstructionResult,
  controllers: (_view, arg) => [arg.allocation.transferLeg.sender],
};

const publicFetchChoice: InterfaceChoice<AllocationFactoryView, AllocationFactory_PublicFetch, AllocationFactoryView> = {
  name: "AllocationFactory_PublicFetch",
  consuming: false,
  argument: AllocationFactory_PublicFetch,
  result: AllocationFactoryView,
  controllers: (_view, arg) => [arg.actor],
};

export const AllocationFactoryChoices = { allocate: allocateChoice, publicFetch: publicFetchChoice } as const;

export const AllocationFactory = defineInterface<AllocationFactoryView>({
  id: spliceName("allocationInstructionV1", MODULE, "AllocationFactory"),
  view: AllocationFactoryView,
  choices: [allocateChoice, publicFetchChoice] as InterfaceChoice<AllocationFactoryView, never, unknown>[],
});

/** Known for filters; its choices come with a registry that allocates in several steps. */
export const AllocationInstruction = defineInterface<AllocationInstructionView>({ id: spliceName("allocationInstructionV1", MODULE, "AllocationInstruction"), view: AllocationInstructionView });
