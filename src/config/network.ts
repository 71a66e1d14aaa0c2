/**
 * Network parameters of the simulated DSO (`network` in the CCWALLET_CONFIG file). Amounts are
 * decimal strings (or JSON numbers) and become exact Numerics; defaults follow Splice's DevNet.
 */
import { z } from "zod";
import { Numeric } from "../ledger/numeric.js";
import { nonNegative, positive } from "./decimal.js";

const ONE = Numeric.parse("1");
/** A share, 0 to 1. */
const fraction = nonNegative.refine((n) => !n.gt(ONE), "must be a fraction from 0 to 1");

export const NetworkSchema = z
  .strictObject({
    /** USD per CC. */
    amuletPrice: positive.prefault("0.005"),
    tickDurationSeconds: z.number().int().positive().default(600),
    holdingFeeUsdPerRound: nonNegative.prefault("0.0000190259"),
    transferPreapprovalFeeUsdPerYear: nonNegative.prefault("1"),
    /** USD per MB of extra traffic. */
    extraTrafficPriceUsdPerMB: nonNegative.prefault("16.67"),
    minTopupAmountBytes: z.number().int().nonnegative().default(200_000),
    /**
     * Free traffic per member (bytes), refilled evenly over the window. Splice's networks grant
     * 400,000 bytes per 20 minutes; the default here is 10^12 bytes so that tests and benches never
     * run dry — set Splice's values to exercise top-ups.
     */
    baseRateBurstAmountBytes: z.number().int().nonnegative().default(1_000_000_000_000),
    baseRateBurstWindowSeconds: z.number().int().positive().default(1200),
    /** Meters the participant's traffic per transaction (off: every transaction is free, paidTrafficCost 0). */
    meterTraffic: z.boolean().default(true),
    extraFeaturedAppRewardAmountUsd: nonNegative.prefault("1"),
    maxNumInputs: z.number().int().positive().default(100),
    maxNumOutputs: z.number().int().positive().default(100),
    maxNumLockHolders: z.number().int().positive().default(50),
    isDevNet: z.boolean().default(true),
    issuance: z
      .strictObject({
        amuletToIssuePerYear: nonNegative.prefault("40000000000"),
        validatorRewardPercentage: fraction.prefault("0.05"),
        appRewardPercentage: fraction.prefault("0.15"),
        validatorRewardCap: nonNegative.prefault("0.2"),
        featuredAppRewardCap: nonNegative.prefault("100"),
        unfeaturedAppRewardCap: nonNegative.prefault("0.6"),
        validatorFaucetCapUsd: nonNegative.prefault("2.85"),
      })
      .refine((i) => !i.validatorRewardPercentage.add(i.appRewardPercentage).gt(ONE), {
        message: "validatorRewardPercentage and appRewardPercentage together must not pass 1 (the rest of the issuance goes to the super validators)",
        path: ["appRewardPercentage"],
      })
      .prefault({}),
  })
  .prefault({});

export type NetworkConfig = z.infer<typeof NetworkSchema>;

export const defaultNetworkConfig = (): NetworkConfig => NetworkSchema.parse(undefined);
