/**
 * How much a reward coupon mints once its round issues, as Splice's
 * `computeIssuingRoundParameters`: the round's share of the yearly issuance is split into
 * tranches (validators, then validator faucets from what they left; apps, then the featured
 * extra from what unfeatured issuance left); each coupon unit mints its tranche divided by the
 * round's total coupons, never more than the tranche's cap. Every step rounds half-even at
 * scale 10 exactly where Splice's Decimal arithmetic does.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { Numeric } from "../../ledger/numeric.js";
import type { IssuanceConfig } from "./amulet-config.js";
import { spliceType } from "./packages.js";

export const OpenMiningRoundSummary = t.record(
  {
    totalValidatorRewardCoupons: t.numeric(),
    totalFeaturedAppRewardCoupons: t.numeric(),
    totalUnfeaturedAppRewardCoupons: t.numeric(),
    totalSvRewardWeight: t.int64,
    optTotalValidatorFaucetCoupons: t.optional(t.int64),
  },
  spliceType("amulet", "Splice.Issuance", "OpenMiningRoundSummary"),
);
export type OpenMiningRoundSummary = ValueOf<typeof OpenMiningRoundSummary>;

export interface IssuingParameters {
  readonly issuancePerValidatorRewardCoupon: Numeric;
  readonly issuancePerFeaturedAppRewardCoupon: Numeric;
  readonly issuancePerUnfeaturedAppRewardCoupon: Numeric;
  readonly issuancePerSvRewardCoupon: Numeric;
  readonly optIssuancePerValidatorFaucetCoupon: Numeric;
}

const MICROS_PER_YEAR = 365n * 86_400_000_000n;

interface Tranche {
  readonly rewardsToIssue: Numeric;
  readonly issuancePerCoupon: Numeric;
  readonly unclaimedRewards: Numeric;
}

/**
 * Splice `computeIssuanceTranche`: as much per coupon as the tranche allows, at most the cap;
 * with no coupons the cap is signalled as what one coupon could have earned.
 */
function tranche(rewardsToIssue: Numeric, capPerCoupon: Numeric, totalCoupons: Numeric): Tranche {
  if (!totalCoupons.isPositive()) return { rewardsToIssue, issuancePerCoupon: capPerCoupon, unclaimedRewards: rewardsToIssue };
  const scaledTotal = capPerCoupon.mul(totalCoupons);
  const issuancePerCoupon = rewardsToIssue.min(scaledTotal).mul(capPerCoupon).div(scaledTotal);
  return { rewardsToIssue, issuancePerCoupon, unclaimedRewards: rewardsToIssue.sub(issuancePerCoupon.mul(totalCoupons)).max(Numeric.zero) };
}

/** Splice `computeIssuingRoundParameters` (no development fund, no SV reward weights here). */
export function issuingParameters(tickMicros: bigint, amuletPrice: Numeric, config: IssuanceConfig, summary: OpenMiningRoundSummary): IssuingParameters {
  const roundsPerYear = Numeric.parse(MICROS_PER_YEAR.toString()).div(Numeric.parse(tickMicros.toString()));
  const inRound = config.amuletToIssuePerYear.div(roundsPerYear);
  const validator = tranche(inRound.mul(config.validatorRewardPercentage), config.validatorRewardCap, summary.totalValidatorRewardCoupons);
  const faucetCap = (config.optValidatorFaucetCap ?? Numeric.parse("2.85")).div(amuletPrice);
  const faucets = tranche(validator.unclaimedRewards, faucetCap, Numeric.parse((summary.optTotalValidatorFaucetCoupons ?? 0n).toString()));
  const appCoupons = summary.totalFeaturedAppRewardCoupons.add(summary.totalUnfeaturedAppRewardCoupons);
  const unfeatured = tranche(inRound.mul(config.appRewardPercentage), config.unfeaturedAppRewardCap, appCoupons);
  // Featured apps get the unfeatured rate plus what unfeatured issuance left, up to their extra cap.
  const featured = tranche(unfeatured.unclaimedRewards, config.featuredAppRewardCap.sub(config.unfeaturedAppRewardCap), summary.totalFeaturedAppRewardCoupons);
  const toSvs = inRound.sub(validator.rewardsToIssue).sub(unfeatured.rewardsToIssue);
  return {
    issuancePerValidatorRewardCoupon: validator.issuancePerCoupon,
    issuancePerFeaturedAppRewardCoupon: unfeatured.issuancePerCoupon.add(featured.issuancePerCoupon),
    issuancePerUnfeaturedAppRewardCoupon: unfeatured.issuancePerCoupon,
    issuancePerSvRewardCoupon: summary.totalSvRewardWeight === 0n ? toSvs : toSvs.div(Numeric.parse(summary.totalSvRewardWeight.toString())),
    optIssuancePerValidatorFaucetCoupon: faucets.issuancePerCoupon,
  };
}
