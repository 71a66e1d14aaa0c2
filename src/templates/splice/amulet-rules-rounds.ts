/**
 * The DSO's `AmuletRules` choices for the round lifecycle: bootstrap the first rounds, advance
 * open rounds, start issuing, close and archive them, and expire the rewards nobody minted.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { Numeric } from "../../ledger/numeric.js";
import { choice } from "../../ledger/template.js";
import { AppRewardCoupon, AppRewardCoupon_DsoExpire, UnclaimedReward, ValidatorRewardCoupon, ValidatorRewardCoupon_DsoExpire } from "./amulet.js";
import { currentConfig, p } from "./amulet-rules-payload.js";
import { issuingParameters, OpenMiningRoundSummary } from "./issuance.js";
import { ClosedMiningRound, IssuingMiningRound, OpenMiningRound, SummarizingMiningRound } from "./round.js";
import { RelTime } from "./types.js";
import { ValidatorLivenessActivityRecord, ValidatorLivenessActivityRecord_DsoExpire } from "./validator-license.js";

const addRel = (at: bigint, rel: ValueOf<typeof RelTime>) => at + rel.microseconds;

export const AmuletRules_Bootstrap_Rounds = choice({
  name: "AmuletRules_Bootstrap_Rounds",
  consuming: false,
  argument: t.record({ amuletPrice: t.numeric(), round0Duration: RelTime }),
  result: t.record({ openMiningRoundCid: t.contractId }),
  controllers: p((r) => [r.dso]),
  body: async (ctx, self, arg) => {
    const config = currentConfig(self.payload);
    const tick = config.tickDuration;
    ctx.require(tick.microseconds <= arg.round0Duration.microseconds, "Round0 duration is larger or equal to tick duration");
    const now = ctx.ledgerTime;
    const closes0 = now + arg.round0Duration.microseconds;
    const rounds = [
      { n: 0n, opensAt: now, targetClosesAt: closes0 },
      { n: 1n, opensAt: now, targetClosesAt: closes0 + tick.microseconds },
      { n: 2n, opensAt: closes0, targetClosesAt: closes0 + 2n * tick.microseconds },
    ];
    let last = "";
    for (const r of rounds) {
      last = await ctx.create(OpenMiningRound, {
        dso: self.payload.dso,
        round: { number: r.n },
        amuletPrice: arg.amuletPrice,
        opensAt: r.opensAt,
        targetClosesAt: r.targetClosesAt,
        issuingFor: { microseconds: r.n * tick.microseconds },
        transferConfigUsd: config.transferConfig,
        tickDuration: tick,
        issuanceConfig: config.issuanceCurve.initialValue,
      });
    }
    return { openMiningRoundCid: last };
  },
});

export const AmuletRules_AdvanceOpenMiningRounds = choice({
  name: "AmuletRules_AdvanceOpenMiningRounds",
  consuming: false,
  argument: t.record({ amuletPrice: t.numeric(), roundToArchiveCid: t.contractId, middleRoundCid: t.contractId, latestRoundCid: t.contractId }),
  result: t.record({ summarizingRoundCid: t.contractId, openRoundCid: t.contractId }),
  controllers: p((r) => [r.dso]),
  body: async (ctx, self, arg) => {
    const dso = self.payload.dso;
    const toArchive = await ctx.fetch(OpenMiningRound, arg.roundToArchiveCid);
    await ctx.archive(OpenMiningRound, arg.roundToArchiveCid);
    const middle = await ctx.fetch(OpenMiningRound, arg.middleRoundCid);
    const latest = await ctx.fetch(OpenMiningRound, arg.latestRoundCid);
    const now = ctx.ledgerTime;
    ctx.require(middle.round.number === toArchive.round.number + 1n, "middleRound is one after roundToArchive");
    ctx.require(latest.round.number === middle.round.number + 1n, "latestRound is one after middleRound");
    ctx.require(toArchive.targetClosesAt <= now, "roundToArchive is past targetCloseAt");
    ctx.require(latest.opensAt <= now, "latestRound is open");
    ctx.require(addRel(middle.opensAt, middle.tickDuration) <= now, "middle round has been open for >= 1 tick");
    const summarizingRoundCid = await ctx.create(SummarizingMiningRound, {
      dso,
      round: toArchive.round,
      amuletPrice: toArchive.amuletPrice,
      issuanceConfig: toArchive.issuanceConfig,
      tickDuration: toArchive.tickDuration,
    });
    const config = currentConfig(self.payload);
    const tick = config.tickDuration;
    const opensAt = (now > latest.opensAt ? now : latest.opensAt) + tick.microseconds;
    const openRoundCid = await ctx.create(OpenMiningRound, {
      dso,
      round: { number: latest.round.number + 1n },
      amuletPrice: arg.amuletPrice,
      opensAt,
      targetClosesAt: opensAt + 2n * tick.microseconds,
      issuingFor: { microseconds: latest.issuingFor.microseconds + latest.tickDuration.microseconds },
      transferConfigUsd: config.transferConfig,
      tickDuration: tick,
      issuanceConfig: config.issuanceCurve.initialValue,
    });
    return { summarizingRoundCid, openRoundCid };
  },
});

export const AmuletRules_MiningRound_StartIssuing = choice({
  name: "AmuletRules_MiningRound_StartIssuing",
  consuming: false,
  argument: t.record({ miningRoundCid: t.contractId, summary: OpenMiningRoundSummary }),
  result: t.record({ issuingRoundCid: t.contractId }),
  controllers: p((r) => [r.dso]),
  body: async (ctx, self, arg) => {
    const round = await ctx.fetch(SummarizingMiningRound, arg.miningRoundCid);
    await ctx.archive(SummarizingMiningRound, arg.miningRoundCid);
    const params = issuingParameters(round.tickDuration.microseconds, round.amuletPrice, round.issuanceConfig, arg.summary);
    const opensAt = ctx.ledgerTime + round.tickDuration.microseconds;
    const issuingRoundCid = await ctx.create(IssuingMiningRound, {
      dso: self.payload.dso,
      round: round.round,
      opensAt,
      targetClosesAt: opensAt + 2n * round.tickDuration.microseconds,
      issuancePerValidatorRewardCoupon: params.issuancePerValidatorRewardCoupon,
      issuancePerFeaturedAppRewardCoupon: params.issuancePerFeaturedAppRewardCoupon,
      issuancePerUnfeaturedAppRewardCoupon: params.issuancePerUnfeaturedAppRewardCoupon,
      issuancePerSvRewardCoupon: params.issuancePerSvRewardCoupon,
      optIssuancePerValidatorFaucetCoupon: params.optIssuancePerValidatorFaucetCoupon,
    });
    return { issuingRoundCid };
  },
});

export const AmuletRules_MiningRound_Close = choice({
  name: "AmuletRules_MiningRound_Close",
  consuming: false,
  argument: t.record({ issuingRoundCid: t.contractId }),
  result: t.record({ closedRoundCid: t.contractId }),
  controllers: p((r) => [r.dso]),
  body: async (ctx, _self, arg) => {
    const r = await ctx.fetch(IssuingMiningRound, arg.issuingRoundCid);
    await ctx.archive(IssuingMiningRound, arg.issuingRoundCid);
    ctx.require(r.targetClosesAt <= ctx.ledgerTime, "Mining round is past targetClosesAt");
    const { opensAt: _o, targetClosesAt: _t, ...rest } = r;
    return { closedRoundCid: await ctx.create(ClosedMiningRound, rest) };
  },
});

export const AmuletRules_MiningRound_Archive = choice({
  name: "AmuletRules_MiningRound_Archive",
  consuming: false,
  argument: t.record({ closedRoundCid: t.contractId }),
  result: t.record({}),
  controllers: p((r) => [r.dso]),
  body: async (ctx, _self, arg) => {
    await ctx.fetch(ClosedMiningRound, arg.closedRoundCid);
    await ctx.archive(ClosedMiningRound, arg.closedRoundCid);
    return {};
  },
});

export const AmuletRules_ClaimExpiredRewards = choice({
  name: "AmuletRules_ClaimExpiredRewards",
  consuming: false,
  argument: t.record({
    closedRoundCid: t.contractId,
    validatorRewardCouponCids: t.list(t.contractId),
    appCouponCids: t.list(t.contractId),
    optValidatorLivenessActivityRecordCids: t.optional(t.list(t.contractId)),
  }),
  result: t.record({ unclaimedRewardCid: t.optional(t.contractId) }),
  controllers: p((r) => [r.dso]),
  body: async (ctx, self, arg) => {
    const closed = await ctx.fetch(ClosedMiningRound, arg.closedRoundCid);
    const closedRound = { closedRoundCid: arg.closedRoundCid };
    let amount = Numeric.zero;
    for (const cid of arg.validatorRewardCouponCids) {
      const r = await ctx.exercise(ValidatorRewardCoupon, cid, ValidatorRewardCoupon_DsoExpire, closedRound);
      amount = amount.add(r.amount.mul(closed.issuancePerValidatorRewardCoupon));
    }
    for (const cid of arg.optValidatorLivenessActivityRecordCids ?? []) {
      await ctx.exercise(ValidatorLivenessActivityRecord, cid, ValidatorLivenessActivityRecord_DsoExpire, closedRound);
      amount = amount.add(closed.optIssuancePerValidatorFaucetCoupon ?? Numeric.zero);
    }
    for (const cid of arg.appCouponCids) {
      const r = await ctx.exercise(AppRewardCoupon, cid, AppRewardCoupon_DsoExpire, closedRound);
      amount = amount.add(r.amount.mul(r.featured ? closed.issuancePerFeaturedAppRewardCoupon : closed.issuancePerUnfeaturedAppRewardCoupon));
    }
    const unclaimedRewardCid = amount.isPositive() ? await ctx.create(UnclaimedReward, { dso: self.payload.dso, amount }) : null;
    return { unclaimedRewardCid };
  },
});

export const roundLifecycleChoices = [
  AmuletRules_Bootstrap_Rounds,
  AmuletRules_AdvanceOpenMiningRounds,
  AmuletRules_MiningRound_StartIssuing,
  AmuletRules_MiningRound_Close,
  AmuletRules_MiningRound_Archive,
  AmuletRules_ClaimExpiredRewards,
];
