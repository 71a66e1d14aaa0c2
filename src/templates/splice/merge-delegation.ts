/**
 * Merge delegations (splice-util-token-standard-wallet `Splice.Util.Token.Wallet.MergeDelegation`):
 * a user lets its wallet operator merge the user's token-standard holdings, optionally topping
 * them up with a transfer from the operator (airdrops) in the same call. `BatchMergeUtility` runs
 * about a hundred such merges in one transaction, passing the operator's change from one extra
 * transfer on to the next so the batch never spends an already consumed holding.
 *
 * Splice's docs also call the batch choice `BatchMergeUtility_MergeHoldings`; the package only has
 * `BatchMergeUtility_BatchMerge`. Both names are served here, with the same argument and result.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import type { Numeric } from "../../ledger/numeric.js";
import { choice, defineTemplate, type Template, type UpdateContext } from "../../ledger/template.js";
import { FeaturedAppRight } from "./amulet.js";
import { spliceName, spliceType } from "./packages.js";
import { AppRewardBeneficiary } from "./transfer-types.js";
import { InstrumentId, Metadata } from "./types.js";
import {
  runTransferCall,
  TransferFactoryTransferArg,
  TransferInstructionResult,
  type FeaturedProvider,
  type TransferInstructionResult as TransferInstructionResultV,
} from "./wallet/token-transfer-call.js";
import { updated } from "../../util/extend.js";

const MODULE = "Splice.Util.Token.Wallet.MergeDelegation";
const ty = (entity: string) => spliceType("tokenStandardWallet", MODULE, entity);

const delegationPayload = t.record({ operator: t.party, owner: t.party, meta: Metadata }, ty("MergeDelegation"));
export type MergeDelegationPayload = ValueOf<typeof delegationPayload>;
const proposalPayload = t.record({ delegation: delegationPayload });
export type MergeDelegationProposalPayload = ValueOf<typeof proposalPayload>;
const utilityPayload = t.record({ operator: t.party });
export type BatchMergeUtilityPayload = ValueOf<typeof utilityPayload>;

export const TransferCall = t.record({ factoryCid: t.contractId, choiceArg: TransferFactoryTransferArg }, ty("TransferCall"));
export type TransferCall = ValueOf<typeof TransferCall>;
export const FeaturedAppRightCall = t.record({ appRightCid: t.contractId, beneficiaries: t.list(AppRewardBeneficiary) }, ty("FeaturedAppRightCall"));

export const MergeDelegationMergeArg = t.record(
  { optMergeTransfer: t.optional(TransferCall), optExtraTransfer: t.optional(TransferCall), optFeaturedAppRight: t.optional(FeaturedAppRightCall) },
  ty("MergeDelegation_Merge"),
);
export type MergeDelegationMergeArg = ValueOf<typeof MergeDelegationMergeArg>;
export const MergeDelegationMergeResult = t.record(
  { optMergeTransferResult: t.optional(TransferInstructionResult), optExtraTransferResult: t.optional(TransferInstructionResult) },
  ty("MergeDelegation_MergeResult"),
);
export type MergeDelegationMergeResult = ValueOf<typeof MergeDelegationMergeResult>;

const unitResult = (entity: string) => t.record({ result: t.unit }, ty(entity));
const unit = () => ({ result: {} });

/** The featured-app right the operator merges under: it must be the operator's own. */
async function featuredProvider(ctx: UpdateContext, operator: string, call: MergeDelegationMergeArg["optFeaturedAppRight"]): Promise<FeaturedProvider | null> {
  if (!call) return null;
  const right = await ctx.fetch(FeaturedAppRight, call.appRightCid);
  ctx.require(right.provider === operator, `FeaturedAppRight ${call.appRightCid} is the operator's`);
  return { provider: operator, appRightCid: call.appRightCid, beneficiaries: call.beneficiaries };
}

async function merge(ctx: UpdateContext, d: MergeDelegationPayload, arg: MergeDelegationMergeArg): Promise<MergeDelegationMergeResult> {
  ctx.require(arg.optMergeTransfer !== null || arg.optExtraTransfer !== null, "At least one of optMergeTransfer or optExtraTransfer is provided");
  const featured = await featuredProvider(ctx, d.operator, arg.optFeaturedAppRight);
  let optExtraTransferResult: TransferInstructionResultV | null = null;
  let extraHoldings: string[] = [];
  let extraAmount: Numeric | null = null;
  if (arg.optExtraTransfer) {
    const tr = arg.optExtraTransfer.choiceArg.transfer;
    ctx.require(tr.sender === d.operator && tr.receiver === d.owner, "the extra transfer goes from the operator to the owner");
    optExtraTransferResult = await runTransferCall(ctx, arg.optExtraTransfer, null);
    const out = optExtraTransferResult.output;
    ctx.require(out.tag === "TransferInstructionResult_Completed", "the extra transfer completed");
    extraHoldings = out.tag === "TransferInstructionResult_Completed" ? out.value.receiverHoldingCids : [];
    extraAmount = tr.amount;
  }
  let optMergeTransferResult: TransferInstructionResultV | null = null;
  if (arg.optMergeTransfer) {
    const call = arg.optMergeTransfer;
    const tr = call.choiceArg.transfer;
    ctx.require(tr.sender === d.owner && tr.receiver === d.owner, "the merge transfer is a self-transfer of the owner");
    // The extra transfer's holdings join the merge, and its amount the merged amount.
    const transfer = updated(tr, {
      amount: extraAmount ? tr.amount.add(extraAmount) : tr.amount,
      inputHoldingCids: [...tr.inputHoldingCids, ...extraHoldings],
    });
    optMergeTransferResult = await runTransferCall(ctx, updated(call, { choiceArg: updated(call.choiceArg, { transfer }) }), featured);
  }
  return { optMergeTransferResult, optExtraTransferResult };
}

export const MergeDelegation_Merge = choice({
  name: "MergeDelegation_Merge",
  consuming: false,
  argument: MergeDelegationMergeArg,
  result: MergeDelegationMergeResult,
  controllers: (p: MergeDelegationPayload) => [p.operator],
  body: (ctx, self, arg) => merge(ctx, self.payload, arg),
});

export const MergeDelegation_Reject = choice({
  name: "MergeDelegation_Reject",
  consuming: true,
  argument: t.record({}),
  result: unitResult("MergeDelegation_RejectResult"),
  controllers: (p: MergeDelegationPayload) => [p.operator],
  body: unit,
});

export const MergeDelegation_Withdraw = choice({
  name: "MergeDelegation_Withdraw",
  consuming: true,
  argument: t.record({}),
  result: unitResult("MergeDelegation_WithdrawResult"),
  controllers: (p: MergeDelegationPayload) => [p.owner],
  body: unit,
});

export const MergeDelegation: Template<MergeDelegationPayload> = defineTemplate<MergeDelegationPayload>({
  id: spliceName("tokenStandardWallet", MODULE, "MergeDelegation"),
  payload: delegationPayload,
  signatories: (p) => [p.owner, p.operator],
  choices: [MergeDelegation_Merge, MergeDelegation_Reject, MergeDelegation_Withdraw],
});

export const MergeDelegationProposal_Accept = choice({
  name: "MergeDelegationProposal_Accept",
  consuming: true,
  argument: t.record({}),
  result: t.record({ mergeDelegationCid: t.contractId }, ty("MergeDelegationProposal_AcceptResult")),
  controllers: (p: MergeDelegationProposalPayload) => [p.delegation.operator],
  body: async (ctx, self) => ({ mergeDelegationCid: await ctx.create(MergeDelegation, self.payload.delegation) }),
});

export const MergeDelegationProposal_Reject = choice({
  name: "MergeDelegationProposal_Reject",
  consuming: true,
  argument: t.record({}),
  result: unitResult("MergeDelegationProposal_RejectResult"),
  controllers: (p: MergeDelegationProposalPayload) => [p.delegation.operator],
  body: unit,
});

export const MergeDelegationProposal_Withdraw = choice({
  name: "MergeDelegationProposal_Withdraw",
  consuming: true,
  argument: t.record({}),
  result: unitResult("MergeDelegationProposal_WithdrawResult"),
  controllers: (p: MergeDelegationProposalPayload) => [p.delegation.owner],
  body: unit,
});

export const MergeDelegationProposal: Template<MergeDelegationProposalPayload> = defineTemplate<MergeDelegationProposalPayload>({
  id: spliceName("tokenStandardWallet", MODULE, "MergeDelegationProposal"),
  payload: proposalPayload,
  signatories: (p) => [p.delegation.owner],
  observers: (p) => [p.delegation.operator],
  choices: [MergeDelegationProposal_Accept, MergeDelegationProposal_Reject, MergeDelegationProposal_Withdraw],
});

const MergeDelegationCall = t.record({ delegationCid: t.contractId, choiceArg: MergeDelegationMergeArg }, ty("MergeDelegationCall"));
const batchArg = t.record({ mergeCalls: t.list(MergeDelegationCall) }, ty("BatchMergeUtility_BatchMerge"));
const batchResult = t.record(
  { results: t.list(MergeDelegationMergeResult), operatorChangeMap: t.genMap(InstrumentId, t.list(t.contractId)) },
  ty("BatchMergeUtility_BatchMergeResult"),
);
type InstrumentIdV = ValueOf<typeof InstrumentId>;
const sameInstrument = (a: InstrumentIdV) => (b: InstrumentIdV) => a.admin === b.admin && a.id === b.id;

/**
 * Runs the merge calls in order. An extra transfer whose instrument already had one in this batch
 * spends the operator's change from that one instead of the inputs it names (they are consumed).
 */
async function batchMerge(ctx: UpdateContext, operator: string, calls: ValueOf<typeof batchArg>["mergeCalls"]): Promise<ValueOf<typeof batchResult>> {
  const changes: [InstrumentIdV, string[]][] = [];
  const results: MergeDelegationMergeResult[] = [];
  for (const call of calls) {
    let choiceArg = call.choiceArg;
    const extra = choiceArg.optExtraTransfer;
    const instrument = extra?.choiceArg.transfer.instrumentId;
    const prior = instrument ? changes.find(([i]) => sameInstrument(i)(instrument)) : undefined;
    if (extra && prior) {
      const transfer = updated(extra.choiceArg.transfer, { inputHoldingCids: prior[1] });
      choiceArg = updated(choiceArg, { optExtraTransfer: updated(extra, { choiceArg: updated(extra.choiceArg, { transfer }) }) });
    }
    const delegation = await ctx.fetch(MergeDelegation, call.delegationCid);
    ctx.require(delegation.operator === operator, `MergeDelegation ${call.delegationCid} is for operator ${operator}`);
    const result = await ctx.exercise(MergeDelegation, call.delegationCid, MergeDelegation_Merge, choiceArg);
    const r = result as MergeDelegationMergeResult;
    if (instrument && r.optExtraTransferResult) {
      if (prior) prior[1] = r.optExtraTransferResult.senderChangeCids;
      else changes.push([instrument, r.optExtraTransferResult.senderChangeCids]);
    }
    results.push(r);
  }
  return { results, operatorChangeMap: changes };
}

const batchChoice = (name: string) =>
  choice({
    name,
    consuming: false,
    argument: batchArg,
    result: batchResult,
    controllers: (p: BatchMergeUtilityPayload) => [p.operator],
    body: (ctx, self, arg) => batchMerge(ctx, self.payload.operator, arg.mergeCalls),
  });

export const BatchMergeUtility_BatchMerge = batchChoice("BatchMergeUtility_BatchMerge");

export const BatchMergeUtility_MergeHoldings = batchChoice("BatchMergeUtility_MergeHoldings");

export const BatchMergeUtility: Template<BatchMergeUtilityPayload> = defineTemplate<BatchMergeUtilityPayload>({
  id: spliceName("tokenStandardWallet", MODULE, "BatchMergeUtility"),
  payload: utilityPayload,
  signatories: (p) => [p.operator],
  choices: [BatchMergeUtility_BatchMerge, BatchMergeUtility_MergeHoldings],
});

export const mergeDelegationTemplates = [MergeDelegationProposal, MergeDelegation, BatchMergeUtility] as const;
