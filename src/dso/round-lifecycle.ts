/**
 * The DSO's round automation, one step at a time: advance the open rounds when the oldest is due,
 * summarize and start issuing, close issuing rounds that are due, expire the unclaimed coupons of
 * closed rounds and archive them. Each step is one ledger command; `true` means it did something.
 */
import type { NetworkConfig } from "../config/network.js";
import { Numeric } from "../ledger/numeric.js";
import { type LedgerClient } from "../ledger/ledger-client.js";
import { AmuletRules, AmuletRules_AdvanceOpenMiningRounds, AmuletRules_ClaimExpiredRewards, AmuletRules_MiningRound_Archive, AmuletRules_MiningRound_Close, AmuletRules_MiningRound_StartIssuing } from "../templates/splice/amulet-rules.js";
import { AppRewardCoupon, ValidatorRewardCoupon } from "../templates/splice/amulet.js";
import { SummarizingMiningRound } from "../templates/splice/round.js";
import { ValidatorLivenessActivityRecord } from "../templates/splice/validator-license.js";
import type { NetworkState } from "../network/network-state.js";

const BATCH = 100;

export async function advanceRounds(client: LedgerClient, network: NetworkConfig, state: NetworkState, now: bigint): Promise<boolean> {
  const open = state.openRounds;
  if (open.length < 3) return false;
  const [toArchive, middle, latest] = open.slice(-3);
  const due =
    toArchive.payload.targetClosesAt <= now &&
    latest.payload.opensAt <= now &&
    middle.payload.opensAt + middle.payload.tickDuration.microseconds <= now;
  if (!due) return false;
  await client.exercise([state.rules.payload.dso], AmuletRules, state.rules.contractId, AmuletRules_AdvanceOpenMiningRounds, {
    amuletPrice: network.amuletPrice,
    roundToArchiveCid: toArchive.contractId,
    middleRoundCid: middle.contractId,
    latestRoundCid: latest.contractId,
  });
  return true;
}

export async function startIssuing(client: LedgerClient, state: NetworkState): Promise<boolean> {
  const dso = state.rules.payload.dso;
  const summarizing = await client.active(SummarizingMiningRound, [dso]);
  for (const round of summarizing) {
    const n = round.payload.round.number;
    // Only the DSO's coupons: anyone can sign a coupon naming itself as `dso` and the DSO as observer.
    const inRound = <P extends { dso: string; round: { number: bigint } }>(xs: { payload: P }[]) => xs.filter((x) => x.payload.dso === dso && x.payload.round.number === n);
    const validator = inRound(await client.active(ValidatorRewardCoupon, [dso]));
    const app = inRound(await client.active(AppRewardCoupon, [dso]));
    const liveness = inRound(await client.active(ValidatorLivenessActivityRecord, [dso]));
    const sum = (xs: Numeric[]) => xs.reduce((a, b) => a.add(b), Numeric.zero);
    await client.exercise([dso], AmuletRules, state.rules.contractId, AmuletRules_MiningRound_StartIssuing, {
      miningRoundCid: round.contractId,
      summary: {
        totalValidatorRewardCoupons: sum(validator.map((c) => c.payload.amount)),
        totalFeaturedAppRewardCoupons: sum(app.filter((c) => c.payload.featured).map((c) => c.payload.amount)),
        totalUnfeaturedAppRewardCoupons: sum(app.filter((c) => !c.payload.featured).map((c) => c.payload.amount)),
        totalSvRewardWeight: 0n,
        optTotalValidatorFaucetCoupons: BigInt(liveness.length),
      },
    });
  }
  return summarizing.length > 0;
}

export async function closeIssuingRounds(client: LedgerClient, state: NetworkState, now: bigint): Promise<boolean> {
  const dso = state.rules.payload.dso;
  const due = state.issuingRounds.filter((r) => r.payload.targetClosesAt <= now);
  for (const r of due) {
    await client.exercise([dso], AmuletRules, state.rules.contractId, AmuletRules_MiningRound_Close, { issuingRoundCid: r.contractId });
  }
  return due.length > 0;
}

/** Coupons not minted while their round was issuing expire once it is closed; then the round goes. */
export async function retireClosedRounds(client: LedgerClient, state: NetworkState): Promise<boolean> {
  const dso = state.rules.payload.dso;
  let acted = false;
  for (const closed of state.closedRounds) {
    const n = closed.payload.round.number;
    const of = <P extends { dso: string; round: { number: bigint } }>(xs: { contractId: string; payload: P }[]) =>
      xs.filter((x) => x.payload.dso === dso && x.payload.round.number === n).map((x) => x.contractId);
    const validator = of(await client.active(ValidatorRewardCoupon, [dso]));
    const app = of(await client.active(AppRewardCoupon, [dso]));
    const liveness = of(await client.active(ValidatorLivenessActivityRecord, [dso]));
    const claim = AmuletRules_ClaimExpiredRewards;
    while (validator.length + app.length + liveness.length > 0) {
      const v = validator.splice(0, BATCH);
      const a = app.splice(0, BATCH - v.length);
      const l = liveness.splice(0, BATCH - v.length - a.length);
      await client.exercise([dso], AmuletRules, state.rules.contractId, claim, {
        closedRoundCid: closed.contractId,
        validatorRewardCouponCids: v,
        appCouponCids: a,
        optValidatorLivenessActivityRecordCids: l,
      });
    }
    await client.exercise([dso], AmuletRules, state.rules.contractId, AmuletRules_MiningRound_Archive, { closedRoundCid: closed.contractId });
    acted = true;
  }
  return acted;
}
