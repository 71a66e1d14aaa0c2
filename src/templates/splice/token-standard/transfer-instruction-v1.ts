/**
 * The token standard's transfer API (package `splice-api-token-transfer-instruction-v1`, module
 * `Splice.Api.Token.TransferInstructionV1`), in its released v1.0 shape: a `TransferFactory` that
 * instructs transfers and a `TransferInstruction` that tracks one pending on further steps.
 * Only the interfaces and their data live here; registries (CC: `ExternalPartyAmuletRules`,
 * `AmuletTransferInstruction`) supply the choice bodies.
 */
import { t, type DamlType, type ValueOf } from "../../../ledger/daml-type.js";
import { defineInterface, type InterfaceChoice } from "../../../ledger/template.js";
import { spliceName, spliceType } from "../packages.js";
import { ExtraArgs, InstrumentId, Metadata } from "../types.js";

const MODULE = "Splice.Api.Token.TransferInstructionV1";
const ty = (entity: string) => spliceType("transferInstructionV1", MODULE, entity);

export const Transfer = t.record(
  {
    sender: t.party,
    receiver: t.party,
    amount: t.numeric(),
    instrumentId: InstrumentId,
    requestedAt: t.time,
    executeBefore: t.time,
    inputHoldingCids: t.list(t.contractId),
    meta: Metadata,
  },
  ty("Transfer"),
);
export type Transfer = ValueOf<typeof Transfer>;

/** Variant constructors with fields are records named `<Variant>.<Constructor>` in Daml-LF. */
const ctorRecord = (variant: string, ctor: string) => ty(`${variant}.${ctor}`);

export const TransferInstructionResult_Output = t.variant(
  {
    TransferInstructionResult_Pending: t.record({ transferInstructionCid: t.contractId }, ctorRecord("TransferInstructionResult_Output", "TransferInstructionResult_Pending")),
    TransferInstructionResult_Completed: t.record({ receiverHoldingCids: t.list(t.contractId) }, ctorRecord("TransferInstructionResult_Output", "TransferInstructionResult_Completed")),
    TransferInstructionResult_Failed: t.unit,
  },
  ty("TransferInstructionResult_Output"),
);
export type TransferInstructionResult_Output = ValueOf<typeof TransferInstructionResult_Output>;

export const TransferInstructionResult = t.record(
  { output: TransferInstructionResult_Output, senderChangeCids: t.list(t.contractId), meta: Metadata },
  ty("TransferInstructionResult"),
);
export type TransferInstructionResult = ValueOf<typeof TransferInstructionResult>;

export const TransferInstructionStatus = t.variant(
  {
    TransferPendingReceiverAcceptance: t.unit,
    TransferPendingInternalWorkflow: t.record({ pendingActions: t.genMap(t.party, t.text) }, ctorRecord("TransferInstructionStatus", "TransferPendingInternalWorkflow")),
  },
  ty("TransferInstructionStatus"),
);

export const TransferInstructionView = t.record(
  { originalInstructionCid: t.optional(t.contractId), transfer: Transfer, status: TransferInstructionStatus, meta: Metadata },
  ty("TransferInstructionView"),
);
export type TransferInstructionView = ValueOf<typeof TransferInstructionView>;

export const TransferFactoryView = t.record({ admin: t.party, meta: Metadata }, ty("TransferFactoryView"));
export type TransferFactoryView = ValueOf<typeof TransferFactoryView>;

// TransferFactory
// ---------------

export const TransferFactory_Transfer = t.record({ expectedAdmin: t.party, transfer: Transfer, extraArgs: ExtraArgs }, ty("TransferFactory_Transfer"));
export type TransferFactory_Transfer = ValueOf<typeof TransferFactory_Transfer>;
export const TransferFactory_PublicFetch = t.record({ expectedAdmin: t.party, actor: t.party }, ty("TransferFactory_PublicFetch"));
export type TransferFactory_PublicFetch = ValueOf<typeof TransferFactory_PublicFetch>;

const transferChoice: InterfaceChoice<TransferFactoryView, TransferFactory_Transfer, TransferInstructionResult> = {
  name: "TransferFactory_Transfer",
  consuming: false,
  argument: TransferFactory_Transfer,
  result: TransferInstructionResult,
  controllers: (_view, arg) => [arg.transfer.sender],
};

const publicFetchChoice: InterfaceChoice<TransferFactoryView, TransferFactory_PublicFetch, TransferFactoryView> = {
  name: "TransferFactory_PublicFetch",
  consuming: false,
  argument: TransferFactory_PublicFetch,
  result: TransferFactoryView,
  controllers: (_view, arg) => [arg.actor],
};

export const TransferFactory = defineInterface<TransferFactoryView>({
  id: spliceName("transferInstructionV1", MODULE, "TransferFactory"),
  view: TransferFactoryView,
  choices: [transferChoice, publicFetchChoice] as InterfaceChoice<TransferFactoryView, never, unknown>[],
});

export const TransferFactoryChoices = { transfer: transferChoice, publicFetch: publicFetchChoice } as const;

// TransferInstruction
// -------------------

export const TransferInstruction_Accept = t.record({ extraArgs: ExtraArgs }, ty("TransferInstruction_Accept"));
export const TransferInstruction_Reject = t.record({ extraArgs: ExtraArgs }, ty("TransferInstruction_Reject"));
export const TransferInstruction_Withdraw = t.record({ extraArgs: ExtraArgs }, ty("TransferInstruction_Withdraw"));
export const TransferInstruction_Update = t.record({ extraActors: t.list(t.party), extraArgs: ExtraArgs }, ty("TransferInstruction_Update"));
export type ExtraArgsArg = ValueOf<typeof TransferInstruction_Accept>;
export type TransferInstruction_Update = ValueOf<typeof TransferInstruction_Update>;

type InstructionChoice<A> = InterfaceChoice<TransferInstructionView, A, TransferInstructionResult>;

const instructionChoice = <A>(name: string, argument: DamlType, controllers: (v: TransferInstructionView, a: A) => string[]): InstructionChoice<A> => ({
  name,
  consuming: true,
  argument,
  result: TransferInstructionResult,
  controllers,
});

export const TransferInstructionChoices = {
  accept: instructionChoice<ExtraArgsArg>("TransferInstruction_Accept", TransferInstruction_Accept, (v) => [v.transfer.receiver]),
  reject: instructionChoice<ExtraArgsArg>("TransferInstruction_Reject", TransferInstruction_Reject, (v) => [v.transfer.receiver]),
  withdraw: instructionChoice<ExtraArgsArg>("TransferInstruction_Withdraw", TransferInstruction_Withdraw, (v) => [v.transfer.sender]),
  update: instructionChoice<TransferInstruction_Update>("TransferInstruction_Update", TransferInstruction_Update, (v, a) => [
    v.transfer.instrumentId.admin,
    ...a.extraActors,
  ]),
} as const;

export const TransferInstruction = defineInterface<TransferInstructionView>({
  id: spliceName("transferInstructionV1", MODULE, "TransferInstruction"),
  view: TransferInstructionView,
  choices: Object.values(TransferInstructionChoices) as InterfaceChoice<TransferInstructionView, never, unknown>[],
});

/** Result constructors, so implementations read like the Daml they mirror. */
export const instructionResult = {
  pending: (transferInstructionCid: string, senderChangeCids: string[], meta: Metadata): TransferInstructionResult => ({
    output: { tag: "TransferInstructionResult_Pending", value: { transferInstructionCid } },
    senderChangeCids,
    meta,
  }),
  completed: (receiverHoldingCids: string[], senderChangeCids: string[], meta: Metadata): TransferInstructionResult => ({
    output: { tag: "TransferInstructionResult_Completed", value: { receiverHoldingCids } },
    senderChangeCids,
    meta,
  }),
  failed: (senderChangeCids: string[], meta: Metadata): TransferInstructionResult => ({
    output: { tag: "TransferInstructionResult_Failed", value: {} },
    senderChangeCids,
    meta,
  }),
};
