/**
 * `AmuletRules` (Splice.AmuletRules): the DSO's rulebook contract. Users exercise its
 * non-consuming choices to transfer, tap (DevNet), buy traffic and pay for preapprovals; the DSO
 * exercises it to run the round lifecycle and expire unclaimed rewards.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { Numeric } from "../../ledger/numeric.js";
import { choice, defineTemplate, type Template, type UpdateContext } from "../../ledger/template.js";
import { AmuletConfig, DEFAULT_TRANSFER_PREAPPROVAL_FEE_PER_DAY, scaleFees } from "./amulet-config.js";
import { Amulet, FeaturedAppRight } from "./amulet.js";
import { MemberTraffic } from "./decentralized-synchronizer.js";
import { executeTransfer } from "./execute-transfer.js";
import { expiringAmount } from "./fees.js";
import { txMeta } from "./metadata.js";
import { spliceName } from "./packages.js";
import { OpenMiningRound } from "./round.js";
import { splitAndBurn } from "./split-and-burn.js";
import { ExternalPartySetupProposal } from "./external-party-setup-proposal.js";
import { TransferPreapproval } from "./transfer-preapproval.js";
import { PaymentTransferContext, Transfer, TransferContext, TransferInput, TransferResult, TransferSummary } from "./transfer-types.js";
import { MICROS_PER_DAY, Metadata, Round } from "./types.js";
import { currentConfig, rulesPayload, type AmuletRulesPayload } from "./amulet-rules-payload.js";
import { roundLifecycleChoices } from "./amulet-rules-rounds.js";

const MODULE = "Splice.AmuletRules";

export { currentConfig, type AmuletRulesPayload } from "./amulet-rules-payload.js";

/** Splice `transferControllers`: sender, provider, every receiver and every lock holder. */
export function transferControllers(tr: Transfer): string[] {
  const s = new Set([tr.sender, tr.provider]);
  for (const o of tr.outputs) {
    s.add(o.receiver);
    for (const h of o.lock?.holders ?? []) s.add(h);
  }
  return [...s];
}

/** The USD fee of a preapproval lifetime: the configured fee per day times the days. */
export function preapprovalFeeUsd(config: AmuletConfig, durationMicros: bigint): Numeric {
  // Splice `relTimeToDays`: a Decimal division, so half-even at scale 10 (not truncated).
  const days = Numeric.parse(durationMicros.toString()).div(Numeric.parse(MICROS_PER_DAY.toString()));
  return days.mul(config.transferPreapprovalFee ?? DEFAULT_TRANSFER_PREAPPROVAL_FEE_PER_DAY);
}

/** Splice `computeTransferPreapprovalFee`: USD per day of lifetime, converted at the open round's price. */
export async function preapprovalFee(ctx: UpdateContext, config: AmuletConfig, durationMicros: bigint, context: ValueOf<typeof TransferContext>, dso: string) {
  ctx.require(durationMicros > 0n, "duration is positive");
  const feeUsd = preapprovalFeeUsd(config, durationMicros);
  const round = await ctx.fetch(OpenMiningRound, context.openMiningRound);
  ctx.require(round.dso === dso, "OpenMiningRound belongs to this DSO");
  return { amuletPaid: feeUsd.div(round.amuletPrice), feeUsd };
}

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

const rulesChoices = [
  choice({
    name: "AmuletRules_Transfer",
    consuming: false,
    argument: t.record({ transfer: Transfer, context: TransferContext }),
    result: TransferResult,
    controllers: (_r: AmuletRulesPayload, arg) => transferControllers(arg.transfer),
    body: (ctx, self, arg) => executeTransfer(ctx, { issueAppRewards: true, issueValidatorRewards: true }, arg.context, self.payload.dso, arg.transfer),
  }),
  choice({
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
  }),
  choice({
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
  }),
  choice({
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
  }),
  choice({
    name: "AmuletRules_Mint",
    consuming: false,
    argument: mintArg,
    result: t.record({ amuletSum: createSummary }),
    controllers: (r: AmuletRulesPayload, arg) => [r.dso, arg.receiver],
    body: async (ctx, self, arg) => ({ amuletSum: await mint(ctx, self.payload, arg) }),
  }),
  choice({
    name: "AmuletRules_DevNet_Tap",
    consuming: false,
    argument: mintArg,
    result: t.record({ amuletSum: createSummary, meta: t.optional(Metadata) }),
    controllers: (_r: AmuletRulesPayload, arg) => [arg.receiver],
    body: async (ctx, self, arg) => {
      ctx.require(self.payload.isDevNet, "isDevNet flag is true");
      const result = await ctx.exercise(AmuletRules, self.contractId, AmuletRules.choices.get("AmuletRules_Mint")!, arg);
      return { amuletSum: (result as { amuletSum: ValueOf<typeof createSummary> }).amuletSum, meta: txMeta("mint", { reason: "tapped faucet" }) };
    },
  }),
  choice({
    name: "AmuletRules_DevNet_FeatureApp",
    consuming: false,
    argument: t.record({ provider: t.party }),
    result: t.record({ featuredAppRightCid: t.contractId }),
    controllers: (_r: AmuletRulesPayload, arg) => [arg.provider],
    body: async (ctx, self, arg) => {
      ctx.require(self.payload.isDevNet, "isDevNet flag is true");
      return { featuredAppRightCid: await ctx.create(FeaturedAppRight, { dso: self.payload.dso, provider: arg.provider }) };
    },
  }),
  ...roundLifecycleChoices,
  choice({
    name: "AmuletRules_Fetch",
    consuming: false,
    argument: t.record({ p: t.party }),
    result: rulesPayload,
    controllers: (_r: AmuletRulesPayload, arg) => [arg.p],
    body: (_ctx, self) => self.payload,
  }),
];

export const AmuletRules: Template<AmuletRulesPayload> = defineTemplate<AmuletRulesPayload>({
  id: spliceName("amulet", MODULE, "AmuletRules"),
  payload: rulesPayload,
  signatories: (r) => [r.dso],
  choices: rulesChoices as never,
});
