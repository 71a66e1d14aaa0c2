/**
 * How much a reward coupon mints once its round issues (a simplified Splice
 * `computeIssuingRoundParameters`): the round's share of the yearly issuance is split into a
 * validator pool and an app pool; each coupon unit mints its pool divided by the round's total
 * coupons, but never more than the configured cap.
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

const perUnit = (pool: Numeric, total: Numeric, cap: Numeric): Numeric => (total.isPositive() ? pool.div(total).min(cap) : cap);

export function issuingParameters(tickMicros: bigint, amuletPrice: Numeric, config: IssuanceConfig, summary: OpenMiningRoundSummary): IssuingParameters {
  const inRound = config.amuletToIssuePerYear.mul(Numeric.fromUnits(tickMicros * 10_000_000_000n / MICROS_PER_YEAR));
  const validatorPool = inRound.mul(config.validatorRewardPercentage);
  const appPool = inRound.mul(config.appRewardPercentage);
  const perValidator = perUnit(validatorPool, summary.totalValidatorRewardCoupons, config.validatorRewardCap);
  const validatorLeft = validatorPool.sub(perValidator.mul(summary.totalValidatorRewardCoupons)).max(Numeric.zero);
  const faucets = Numeric.parse(String(summary.optTotalValidatorFaucetCoupons ?? 0n));
  const faucetCap = (config.optValidatorFaucetCap ?? Numeric.zero).div(amuletPrice);
  const appTotal = summary.totalFeaturedAppRewardCoupons.add(summary.totalUnfeaturedAppRewardCoupons);
  return {
    issuancePerValidatorRewardCoupon: perValidator,
    issuancePerFeaturedAppRewardCoupon: perUnit(appPool, appTotal, config.featuredAppRewardCap),
    issuancePerUnfeaturedAppRewardCoupon: perUnit(appPool, appTotal, config.unfeaturedAppRewardCap),
    issuancePerSvRewardCoupon: Numeric.zero,
    optIssuancePerValidatorFaucetCoupon: perUnit(validatorLeft, faucets, faucetCap),
  };
}
