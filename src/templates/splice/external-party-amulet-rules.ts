/**
 * `Splice.ExternalPartyAmuletRules`: the DSO's rarely-recreated rules contract that external
 * parties (who sign transactions long after preparing them) exercise. It is CC's token-standard
 * `TransferFactory` and `AllocationFactory`, and it creates the legacy `TransferCommand`s the DSO executes in order of a
 * per-sender nonce kept in `TransferCommandCounter`.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { choice, defineTemplate, type ContractRef, type Template, type UpdateContext } from "../../ledger/template.js";
import { spliceName, spliceType } from "./packages.js";
import {
  AllocationFactory,
  type AllocationFactory_Allocate,
  type AllocationFactory_PublicFetch,
  type AllocationFactoryView,
} from "./token-standard/allocation-instruction-v1.js";
import { amuletAllocationFactoryAllocate } from "./token-standard/amulet-allocation-factory.js";
import { amuletTransferFactoryTransfer, requireExpectedAdmin } from "./token-standard/amulet-transfer-factory.js";
import { TransferFactory, type TransferFactory_PublicFetch, type TransferFactory_Transfer, type TransferFactoryView } from "./token-standard/transfer-instruction-v1.js";
import { TransferPreapproval, TransferPreapproval_Send } from "./transfer-preapproval.js";
import { PaymentTransferContext, TransferInput, TransferResult, type TransferResult as TransferResultV } from "./transfer-types.js";
import { emptyMetadata } from "./types.js";
import { assertDeadlineExceeded, assertWithinDeadline } from "../../ledger/deadlines.js";
import { updated } from "../../util/extend.js";

const MODULE = "Splice.ExternalPartyAmuletRules";
const ty = (entity: string) => spliceType("amulet", MODULE, entity);

// TransferCommandCounter
// ----------------------

const counterPayload = t.record({ dso: t.party, sender: t.party, nextNonce: t.int64 });
export type TransferCommandCounterPayload = ValueOf<typeof counterPayload>;

/** The next nonce a sender's TransferCommand must carry; created by the DSO on first use. */
export const TransferCommandCounter: Template<TransferCommandCounterPayload> = defineTemplate<TransferCommandCounterPayload>({
  id: spliceName("amulet", MODULE, "TransferCommandCounter"),
  payload: counterPayload,
  signatories: (p) => [p.dso],
  observers: (p) => [p.sender],
});

// TransferCommand
// ---------------

/** Splice.AmuletRules.InvalidTransferReason. */
export const InvalidTransferReason = t.variant(
  {
    ITR_InsufficientFunds: t.record({ missingAmount: t.numeric() }),
    ITR_UnknownSynchronizer: t.record({ synchronizerId: t.text }),
    ITR_InsufficientTopupAmount: t.record({ requestedTopupAmount: t.int64, minTopupAmount: t.int64 }),
    ITR_Other: t.record({ description: t.text }),
  },
  spliceType("amulet", "Splice.AmuletRules", "InvalidTransferReason"),
);

const TransferCommandResult = t.variant(
  { TransferCommandResultFailure: t.record({ reason: InvalidTransferReason }), TransferCommandResultSuccess: t.record({ result: TransferResult }) },
  ty("TransferCommandResult"),
);
const SendResult = t.record({ result: TransferCommandResult, sender: t.party, nonce: t.int64 }, ty("TransferCommand_SendResult"));
type SendResultV = ValueOf<typeof SendResult>;
const senderNonce = (entity: string) => t.record({ sender: t.party, nonce: t.int64 }, ty(entity));

const commandPayload = t.record({
  dso: t.party,
  sender: t.party,
  receiver: t.party,
  delegate: t.party,
  amount: t.numeric(),
  expiresAt: t.time,
  nonce: t.int64,
  description: t.optional(t.text),
});
export type TransferCommandPayload = ValueOf<typeof commandPayload>;

const sendArgument = t.record({
  context: PaymentTransferContext,
  inputs: t.list(TransferInput),
  transferPreapprovalCidO: t.optional(t.contractId),
  transferCounterCid: t.contractId,
});

/**
 * The nonce rules: equal to the counter executes (and spends the nonce whatever the outcome),
 * smaller is a stale command archived as a failure, larger aborts so it can be retried later.
 */
async function send(ctx: UpdateContext, self: ContractRef<TransferCommandPayload>, arg: ValueOf<typeof sendArgument>): Promise<SendResultV> {
  const cmd = self.payload;
  const fail = (description: string): SendResultV => ({
    result: { tag: "TransferCommandResultFailure", value: { reason: { tag: "ITR_Other", value: { description } } } },
    sender: cmd.sender,
    nonce: cmd.nonce,
  });
  const counter = await ctx.fetch(TransferCommandCounter, arg.transferCounterCid);
  ctx.require(counter.dso === cmd.dso && counter.sender === cmd.sender, `TransferCommandCounter ${arg.transferCounterCid} is the sender's`);
  if (counter.nextNonce > cmd.nonce) return fail(`Expected nonce ${cmd.nonce} is smaller than current counter ${counter.nextNonce}`);
  ctx.require(counter.nextNonce === cmd.nonce, `Expected nonce ${cmd.nonce} is bigger than current counter ${counter.nextNonce}`);
  await ctx.archive(TransferCommandCounter, arg.transferCounterCid);
  await ctx.create(TransferCommandCounter, updated(counter, { nextNonce: counter.nextNonce + 1n }));
  if (!arg.transferPreapprovalCidO) return fail(`No TransferPreapproval for receiver '${cmd.receiver}'`);
  const pre = await ctx.fetch(TransferPreapproval, arg.transferPreapprovalCidO);
  ctx.require(pre.dso === cmd.dso && pre.receiver === cmd.receiver, `TransferPreapproval ${arg.transferPreapprovalCidO} is the receiver's`);
  assertWithinDeadline(ctx, "TransferCommand.expiresAt", cmd.expiresAt);
  const sent = (await ctx.exercise(TransferPreapproval, arg.transferPreapprovalCidO, TransferPreapproval_Send, {
    context: arg.context,
    inputs: arg.inputs,
    amount: cmd.amount,
    sender: cmd.sender,
    description: cmd.description,
  })) as { result: TransferResultV };
  return { result: { tag: "TransferCommandResultSuccess", value: { result: sent.result } }, sender: cmd.sender, nonce: cmd.nonce };
}

export const TransferCommand_Send = choice({
  name: "TransferCommand_Send",
  consuming: true,
  argument: sendArgument,
  result: SendResult,
  controllers: (p: TransferCommandPayload) => [p.delegate],
  body: send,
});

export const TransferCommand_Withdraw = choice({
  name: "TransferCommand_Withdraw",
  consuming: true,
  argument: t.record({}),
  result: senderNonce("TransferCommand_WithdrawResult"),
  controllers: (p: TransferCommandPayload) => [p.sender],
  body: (_ctx, self) => ({ sender: self.payload.sender, nonce: self.payload.nonce }),
});

export const TransferCommand_Expire = choice({
  name: "TransferCommand_Expire",
  consuming: true,
  argument: t.record({ p: t.party }),
  result: senderNonce("TransferCommand_ExpireResult"),
  controllers: (_p: TransferCommandPayload, arg) => [arg.p],
  body: (ctx, self, arg) => {
    const { sender, dso, delegate, nonce, expiresAt } = self.payload;
    ctx.require([sender, dso, delegate].includes(arg.p), "Controller is a stakeholder");
    assertDeadlineExceeded(ctx, "TransferCommand.expiresAt", expiresAt);
    return { sender, nonce };
  },
});

export const TransferCommand: Template<TransferCommandPayload> = defineTemplate<TransferCommandPayload>({
  id: spliceName("amulet", MODULE, "TransferCommand"),
  payload: commandPayload,
  signatories: (p) => [p.sender, p.dso],
  observers: (p) => [p.delegate],
  choices: [TransferCommand_Send, TransferCommand_Withdraw, TransferCommand_Expire],
});

// ExternalPartyAmuletRules
// ------------------------

const rulesPayload = t.record({ dso: t.party });
export type ExternalPartyAmuletRulesPayload = ValueOf<typeof rulesPayload>;

const createTransferCommandArgument = t.record({
  sender: t.party,
  receiver: t.party,
  delegate: t.party,
  amount: t.numeric(),
  expiresAt: t.time,
  nonce: t.int64,
  description: t.optional(t.text),
  expectedDso: t.optional(t.party),
});

export const ExternalPartyAmuletRules_CreateTransferCommand = choice({
  name: "ExternalPartyAmuletRules_CreateTransferCommand",
  consuming: false,
  argument: createTransferCommandArgument,
  result: t.record({ transferCommandCid: t.contractId }, ty("ExternalPartyAmuletRules_CreateTransferCommandResult")),
  controllers: (_p: ExternalPartyAmuletRulesPayload, arg) => [arg.sender],
  body: async (ctx, self, arg) => {
    const dso = self.payload.dso;
    if (arg.expectedDso !== null) ctx.require(arg.expectedDso === dso, `expectedDso ${arg.expectedDso} matches the DSO party ${dso}`);
    assertWithinDeadline(ctx, "ExternalPartyAmuletRules_CreateTransferCommand.expiresAt", arg.expiresAt);
    const { expectedDso: _e, ...fields } = arg;
    return { transferCommandCid: await ctx.create(TransferCommand, { dso, ...fields }) };
  },
});

export const ExternalPartyAmuletRules: Template<ExternalPartyAmuletRulesPayload> = defineTemplate<ExternalPartyAmuletRulesPayload>({
  id: spliceName("amulet", MODULE, "ExternalPartyAmuletRules"),
  payload: rulesPayload,
  signatories: (p) => [p.dso],
  choices: [ExternalPartyAmuletRules_CreateTransferCommand],
  interfaces: [
    {
      iface: TransferFactory,
      view: (p: ExternalPartyAmuletRulesPayload): TransferFactoryView => ({ admin: p.dso, meta: emptyMetadata() }),
      choices: {
        TransferFactory_Transfer: (ctx: UpdateContext, self: ContractRef<ExternalPartyAmuletRulesPayload>, arg: TransferFactory_Transfer) =>
          amuletTransferFactoryTransfer(ctx, self.payload.dso, arg),
        TransferFactory_PublicFetch: (ctx: UpdateContext, self: ContractRef<ExternalPartyAmuletRulesPayload>, arg: TransferFactory_PublicFetch): TransferFactoryView => {
          requireExpectedAdmin(ctx, arg.expectedAdmin, self.payload.dso);
          return { admin: self.payload.dso, meta: emptyMetadata() };
        },
      },
    },
    {
      iface: AllocationFactory,
      view: (p: ExternalPartyAmuletRulesPayload): AllocationFactoryView => ({ admin: p.dso, meta: emptyMetadata() }),
      choices: {
        AllocationFactory_Allocate: (ctx: UpdateContext, self: ContractRef<ExternalPartyAmuletRulesPayload>, arg: AllocationFactory_Allocate) =>
          amuletAllocationFactoryAllocate(ctx, self.payload.dso, arg),
        AllocationFactory_PublicFetch: (ctx: UpdateContext, self: ContractRef<ExternalPartyAmuletRulesPayload>, arg: AllocationFactory_PublicFetch): AllocationFactoryView => {
          requireExpectedAdmin(ctx, arg.expectedAdmin, self.payload.dso);
          return { admin: self.payload.dso, meta: emptyMetadata() };
        },
      },
    },
  ],
});

export const externalPartyAmuletRulesTemplates = [ExternalPartyAmuletRules, TransferCommand, TransferCommandCounter] as const;
