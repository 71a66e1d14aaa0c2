/**
 * `AmuletRules` (Splice.AmuletRules): the DSO's rulebook contract. Users exercise its
 * non-consuming choices to transfer, tap (DevNet), buy traffic and pay for preapprovals; the DSO
 * exercises it to run the round lifecycle and expire unclaimed rewards.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { Numeric } from "../../ledger/numeric.js";
import { choice, defineTemplate, type Template, type UpdateContext } from "../../ledger/template.js";
import { scaleFees } from "./amulet-config.js";
import { Amulet, FeaturedAppRight } from "./amulet.js";
import { MemberTraffic } from "./decentralized-synchronizer.js";
import { expiringAmount } from "./fees.js";
import { txMeta } from "./metadata.js";
import { OpenMiningRound } from "./round.js";
import { splitAndBurn } from "./split-and-burn.js";
import { ExternalPartySetupProposal } from "./external-party-setup-proposal.js";
import { TransferPreapproval } from "./transfer-preapproval.js";
import { PaymentTransferContext, TransferContext, TransferInput, TransferResult, TransferSummary } from "./transfer-types.js";
import { Metadata, Round } from "./types.js";
import { AmuletRulesRef, currentConfig, rulesPayload, type AmuletRulesPayload } from "./amulet-rules-payload.js";
import { AmuletRules_Transfer, preapprovalFee } from "./amulet-rules-transfer.js";
import { roundLifecycleChoices } from "./amulet-rules-rounds.js";

export {
  AmuletRules_AdvanceOpenMiningRounds,
  AmuletRules_Bootstrap_Rounds,
  AmuletRules_ClaimExpiredRewards,
  AmuletRules_MiningRound_Archive,
  AmuletRules_MiningRound_Close,
  AmuletRules_MiningRound_StartIssuing,
} from "./amulet-rules-rounds.js";

export { AmuletRulesRef, currentConfig, type AmuletRulesPayload } from "./amulet-rules-payload.js";

export { AmuletRules_Transfer, preapprovalFee, preapprovalFeeUsd, transferControllers } from "./amulet-rules-transfer.js";

const createSummary = t.record({ amulet: t.contractId, amuletPrice: t.numeric(), round: Round });
const mintArg = t.record({ receiver: t.party, amount: t.numeric(), openRound: t.contractId });

async function mint(ctx: UpdateContext, rules: AmuletRulesPayload, arg: ValueOf<typeof mintArg>) {
  ctx.require(arg.amount.isPositive(), "amount must be positive");
  const round = await ctx.fetch(OpenMiningRound, arg.openRound);
  ctx.require(round.dso === rules.dso, "OpenMiningRound belongs to this DSO");
  const config = scaleFees(round.amuletPrice, round.transferConfigUsd);
  const amulet = await ctx.create(Amulet, { dso: rules.dso, owner: arg.receiver, amount: expiringAmount(arg.amount, round.round, config.holdingFee) });
  return { amulet, amuletPrice: round.amuletPrice, round: round.round };
}

export const AmuletRules_CreateTransferPreapproval = choice({
  name: "AmuletRules_CreateTransferPreapproval",
  consuming: false,
  argument: t.record({ context: PaymentTransferContext, inputs: t.list(TransferInput), receiver: t.party, provider: t.party, expiresAt: t.time }),
  result: t.record({ transferPreapprovalCid: t.contractId, transferResult: TransferResult, amuletPaid: t.numeric(), meta: t.optional(Metadata) }),
  controllers: (_r: AmuletRulesPayload, arg) => [arg.provider, arg.receiver],
  body: async (ctx, self, arg) => {
    const now = ctx.ledgerTime;
    ctx.require(arg.expiresAt > now, "expiresAt is not in the past");
    const dso = self.payload.dso;
    const { amuletPaid } = await preapprovalFee(ctx, currentConfig(self.payload), arg.expiresAt - now, arg.context.context, dso);
    const { transferResult, meta } = await splitAndBurn(ctx, arg.provider, amuletPaid, arg.inputs, arg.context.context, dso, "create TransferPreapproval");
    const transferPreapprovalCid = await ctx.create(TransferPreapproval, {
      dso,
      receiver: arg.receiver,
      provider: arg.provider,
      validFrom: now,
      lastRenewedAt: now,
      expiresAt: arg.expiresAt,
    });
    return { transferPreapprovalCid, transferResult, amuletPaid, meta };
  },
});

export const AmuletRules_CreateExternalPartySetupProposal = choice({
  name: "AmuletRules_CreateExternalPartySetupProposal",
  consuming: false,
  argument: t.record({ context: PaymentTransferContext, inputs: t.list(TransferInput), user: t.party, validator: t.party, preapprovalExpiresAt: t.time }),
  result: t.record({ proposalCid: t.contractId, user: t.party, validator: t.party, transferResult: TransferResult, amuletPaid: t.numeric(), meta: t.optional(Metadata) }),
  controllers: (_r: AmuletRulesPayload, arg) => [arg.validator],
  body: async (ctx, self, arg) => {
    const now = ctx.ledgerTime;
    ctx.require(arg.preapprovalExpiresAt > now, "preapprovalExpiresAt is not in the past");
    const dso = self.payload.dso;
    const { amuletPaid } = await preapprovalFee(ctx, currentConfig(self.payload), arg.preapprovalExpiresAt - now, arg.context.context, dso);
    const { transferResult, meta } = await splitAndBurn(ctx, arg.validator, amuletPaid, arg.inputs, arg.context.context, dso, "create ExternalPartySetupProposal");
    const proposalCid = await ctx.create(ExternalPartySetupProposal, {
      validator: arg.validator,
      user: arg.user,
      dso,
      createdAt: now,
      preapprovalExpiresAt: arg.preapprovalExpiresAt,
    });
    return { proposalCid, user: arg.user, validator: arg.validator, transferResult, amuletPaid, meta };
  },
});

export const AmuletRules_BuyMemberTraffic = choice({
  name: "AmuletRules_BuyMemberTraffic",
  consuming: false,
  argument: t.record({
    inputs: t.list(TransferInput),
    context: TransferContext,
    provider: t.party,
    memberId: t.text,
    synchronizerId: t.text,
    migrationId: t.int64,
    trafficAmount: t.int64,
  }),
  result: t.record({
    round: Round,
    summary: TransferSummary,
    amuletPaid: t.numeric(),
    purchasedTraffic: t.contractId,
    senderChangeAmulet: t.optional(t.contractId),
    meta: t.optional(Metadata),
  }),
  controllers: (_r: AmuletRulesPayload, arg) => [arg.provider],
  body: async (ctx, self, arg) => {
    const dso = self.payload.dso;
    const sync = currentConfig(self.payload).decentralizedSynchronizer;
    ctx.require(sync.requiredSynchronizers.includes(arg.synchronizerId), `InvalidTransfer: ITR_UnknownSynchronizer {synchronizerId = "${arg.synchronizerId}"}`);
    ctx.require(
      arg.trafficAmount >= sync.fees.minTopupAmount,
      `InvalidTransfer: ITR_InsufficientTopupAmount {requestedTopupAmount = ${arg.trafficAmount}, minTopupAmount = ${sync.fees.minTopupAmount}}`,
    );
    const round = await ctx.fetch(OpenMiningRound, arg.context.openMiningRound);
    const usdSpent = Numeric.parse(arg.trafficAmount.toString()).div(Numeric.parse("1000000")).mul(sync.fees.extraTrafficPrice);
    const amuletPaid = usdSpent.div(round.amuletPrice);
    const { transferResult, meta } = await splitAndBurn(ctx, arg.provider, amuletPaid, arg.inputs, arg.context, dso, "traffic purchase");
    const purchasedTraffic = await ctx.create(MemberTraffic, {
      dso,
      memberId: arg.memberId,
      synchronizerId: arg.synchronizerId,
      migrationId: arg.migrationId,
      totalPurchased: arg.trafficAmount,
      numPurchases: 1n,
      amuletSpent: amuletPaid,
      usdSpent,
    });
    return { round: transferResult.round, summary: transferResult.summary, amuletPaid, purchasedTraffic, senderChangeAmulet: transferResult.senderChangeAmulet, meta };
  },
});

export const AmuletRules_Mint = choice({
  name: "AmuletRules_Mint",
  consuming: false,
  argument: mintArg,
  result: t.record({ amuletSum: createSummary }),
  controllers: (r: AmuletRulesPayload, arg) => [r.dso, arg.receiver],
  body: async (ctx, self, arg) => ({ amuletSum: await mint(ctx, self.payload, arg) }),
});

/**
 * The most one DevNet tap mints, checked by the choice itself so that no API avoids it (a direct
 * Ledger API exercise included). Splice's DevNet faucet is limited per tap too; without a limit
 * one user could mint close to Numeric 10's maximum and push another party's holdings past it.
 * A million CC is far more than any DevNet test needs and leaves 22 digits of headroom.
 */
export const DEVNET_TAP_LIMIT = Numeric.parse("1000000");

export const AmuletRules_DevNet_Tap = choice({
  name: "AmuletRules_DevNet_Tap",
  consuming: false,
  argument: mintArg,
  result: t.record({ amuletSum: createSummary, meta: t.optional(Metadata) }),
  controllers: (_r: AmuletRulesPayload, arg) => [arg.receiver],
  body: async (ctx, self, arg) => {
    ctx.require(self.payload.isDevNet, "isDevNet flag is true");
    ctx.require(!arg.amount.gt(DEVNET_TAP_LIMIT), `a DevNet tap mints at most ${DEVNET_TAP_LIMIT} CC`);
    const result = await ctx.exercise(AmuletRules, self.contractId, AmuletRules_Mint, arg);
    return { amuletSum: (result as { amuletSum: ValueOf<typeof createSummary> }).amuletSum, meta: txMeta("mint", { reason: "tapped faucet" }) };
  },
});

export const AmuletRules_DevNet_FeatureApp = choice({
  name: "AmuletRules_DevNet_FeatureApp",
  consuming: false,
  argument: t.record({ provider: t.party }),
  result: t.record({ featuredAppRightCid: t.contractId }),
  controllers: (_r: AmuletRulesPayload, arg) => [arg.provider],
  body: async (ctx, self, arg) => {
    ctx.require(self.payload.isDevNet, "isDevNet flag is true");
    return { featuredAppRightCid: await ctx.create(FeaturedAppRight, { dso: self.payload.dso, provider: arg.provider }) };
  },
});

export const AmuletRules_Fetch = choice({
  name: "AmuletRules_Fetch",
  consuming: false,
  argument: t.record({ p: t.party }),
  result: rulesPayload,
  controllers: (_r: AmuletRulesPayload, arg) => [arg.p],
  body: (_ctx, self) => self.payload,
});

const rulesChoices = [
  AmuletRules_Transfer,
  AmuletRules_CreateTransferPreapproval,
  AmuletRules_CreateExternalPartySetupProposal,
  AmuletRules_BuyMemberTraffic,
  AmuletRules_Mint,
  AmuletRules_DevNet_Tap,
  AmuletRules_DevNet_FeatureApp,
  ...roundLifecycleChoices,
  AmuletRules_Fetch,
];

export const AmuletRules: Template<AmuletRulesPayload> = defineTemplate<AmuletRulesPayload>({
  id: AmuletRulesRef.id,
  payload: rulesPayload,
  signatories: (r) => [r.dso],
  choices: rulesChoices,
});
