/**
 * The pure fee and issuance functions against Splice's formulas, hand-computed at scale 10 with
 * Daml's half-even rounding after every multiplication and division.
 */
import { describe, expect, it } from "vitest";
import { defaultNetworkConfig } from "../../../src/config/network.js";
import { amuletConfigOf } from "../../../src/dso/amulet-config-of.js";
import { Numeric } from "../../../src/ledger/numeric.js";
import { currentAmount, expiresAtRound, holdingFee, isExpired, issuingParameters, scaleFees, type ExpiringAmount } from "../../../src/templates/splice/index.js";

const N = (s: string) => Numeric.parse(s);
const config = amuletConfigOf(defaultNetworkConfig(), "sync::1");
const issuance = config.issuanceCurve.initialValue;
const TICK = 600_000_000n;
const PRICE = N("0.005");
const summary = (v: string, featured: string, unfeatured: string, faucets: bigint) => ({
  totalValidatorRewardCoupons: N(v),
  totalFeaturedAppRewardCoupons: N(featured),
  totalUnfeaturedAppRewardCoupons: N(unfeatured),
  totalSvRewardWeight: 0n,
  optTotalValidatorFaucetCoupons: faucets,
});

describe("holding fee functions", () => {
  const amount: ExpiringAmount = { initialAmount: N("1"), createdAt: { number: 10n }, ratePerRound: { rate: N("0.0038051800") } };

  it("charge rounds elapsed × rate, capped at the initial amount, never for rounds before creation", () => {
    expect(holdingFee(amount, 9n).toString()).toBe("0.0000000000");
    expect(holdingFee(amount, 10n).toString()).toBe("0.0000000000");
    expect(holdingFee(amount, 11n).toString()).toBe("0.0038051800");
    expect(holdingFee(amount, 272n).toString()).toBe("0.9969571600");
    expect(currentAmount(amount, 272n).toString()).toBe("0.0030428400");
    expect(holdingFee(amount, 273n).toString()).toBe("1.0000000000");
    expect(currentAmount(amount, 400n).toString()).toBe("0.0000000000");
  });

  it("expire at createdAt + ceil(initial / rate)", () => {
    // 1 / 0.00380518 = 262.8.. → 263
    expect(expiresAtRound(amount)).toBe(273n);
    expect(isExpired(amount, 272n)).toBe(false);
    expect(isExpired(amount, 273n)).toBe(true);
    expect(expiresAtRound({ ...amount, ratePerRound: { rate: Numeric.zero } })).toBeUndefined();
  });

  it("never expire when initial / rate overflows (Splice's AfterMaxBound)", () => {
    const huge: ExpiringAmount = { initialAmount: N("99999999999999999999"), createdAt: { number: 0n }, ratePerRound: { rate: N("0.0000000001") } };
    expect(expiresAtRound(huge)).toBeUndefined();
    expect(isExpired(huge, 1_000_000n)).toBe(false);
  });
});

describe("scaleFees (Splice: scaleFees (1.0 / amuletPrice))", () => {
  it("multiplies the USD values by the rounded inverse price", () => {
    const usd = { ...config.transferConfig, extraFeaturedAppRewardAmount: N("7"), holdingFee: { rate: N("0.0000190259") } };
    const cc = scaleFees(N("0.003"), usd);
    // 1 / 0.003 = 333.3333333333; × 7 = 2333.3333333331 (a plain 7 / 0.003 would give ...333)
    expect(cc.extraFeaturedAppRewardAmount.toString()).toBe("2333.3333333331");
    expect(cc.holdingFee.rate.toString()).toBe("0.0063419667");
    expect(scaleFees(PRICE, config.transferConfig).holdingFee.rate.toString()).toBe("0.0038051800");
  });
});

describe("issuingParameters (Splice computeIssuingRoundParameters)", () => {
  // 40e9 CC / (365 days / 10 min = 52560 rounds) = 761035.0076103501 per round;
  // validators 5 % = 38051.7503805175, apps 15 % = 114155.2511415525.
  it("with no coupons signals each tranche's cap", () => {
    const p = issuingParameters(TICK, PRICE, issuance, summary("0", "0", "0", 0n));
    expect(p.issuancePerValidatorRewardCoupon.toString()).toBe("0.2000000000");
    expect(p.issuancePerUnfeaturedAppRewardCoupon.toString()).toBe("0.6000000000");
    expect(p.issuancePerFeaturedAppRewardCoupon.toString()).toBe("100.0000000000");
    expect(p.optIssuancePerValidatorFaucetCoupon.toString()).toBe("570.0000000000");
    // 761035.0076103501 − 38051.7503805175 − 114155.2511415525
    expect(p.issuancePerSvRewardCoupon.toString()).toBe("608828.0060882801");
  });

  it("shares a validator tranche that the coupons oversubscribe", () => {
    const p = issuingParameters(TICK, PRICE, issuance, summary("1000000", "0", "0", 0n));
    // 38051.7503805175 × 0.2 = 7610.3500761035; / (0.2 × 1e6) = 0.0380517503|805 → 0.0380517504
    expect(p.issuancePerValidatorRewardCoupon.toString()).toBe("0.0380517504");
  });

  it("shares the app tranche between featured and unfeatured coupons", () => {
    const p = issuingParameters(TICK, PRICE, issuance, summary("0", "1000000", "0", 0n));
    // 114155.2511415525 × 0.6 = 68493.1506849315; / 600000 = 0.1141552511; the 0.0000415525 left
    // for the featured extra is below 1e-10 per coupon
    expect(p.issuancePerUnfeaturedAppRewardCoupon.toString()).toBe("0.1141552511");
    expect(p.issuancePerFeaturedAppRewardCoupon.toString()).toBe("0.1141552511");
    const one = issuingParameters(TICK, PRICE, issuance, summary("0", "200", "0", 0n));
    // 0.6 + the featured tranche's cap 99.4
    expect(one.issuancePerFeaturedAppRewardCoupon.toString()).toBe("100.0000000000");
  });

  it("gives validator faucets what the validator reward coupons left", () => {
    const p = issuingParameters(TICK, PRICE, issuance, summary("100000", "0", "0", 100n));
    // left: 38051.7503805175 − 0.2 × 100000 = 18051.7503805175; × 570 = 10289497.7168949750;
    // / (570 × 100) = 180.5175038052
    expect(p.issuancePerValidatorRewardCoupon.toString()).toBe("0.2000000000");
    expect(p.optIssuancePerValidatorFaucetCoupon.toString()).toBe("180.5175038052");
  });
});
