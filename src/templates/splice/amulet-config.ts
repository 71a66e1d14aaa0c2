/**
 * The network parameters the DSO publishes in `AmuletRules.configSchedule` and copies into each
 * `OpenMiningRound`: Splice's `AmuletConfig` / `TransferConfig` / `IssuanceConfig` field names.
 * This node keeps the subset it uses; the schedule holds no future values.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { Numeric } from "../../ledger/numeric.js";
import { spliceType } from "./packages.js";
import { FixedFee, RatePerRound, RelTime, SteppedRate } from "./types.js";

export const TransferConfig = t.record(
  {
    createFee: FixedFee,
    holdingFee: RatePerRound,
    transferFee: SteppedRate,
    lockHolderFee: FixedFee,
    extraFeaturedAppRewardAmount: t.numeric(),
    maxNumInputs: t.int64,
    maxNumOutputs: t.int64,
    maxNumLockHolders: t.int64,
  },
  spliceType("amulet", "Splice.AmuletConfig", "TransferConfig"),
);
export type TransferConfig = ValueOf<typeof TransferConfig>;

export const IssuanceConfig = t.record(
  {
    amuletToIssuePerYear: t.numeric(),
    validatorRewardPercentage: t.numeric(),
    appRewardPercentage: t.numeric(),
    validatorRewardCap: t.numeric(),
    featuredAppRewardCap: t.numeric(),
    unfeaturedAppRewardCap: t.numeric(),
    optValidatorFaucetCap: t.optional(t.numeric()),
  },
  spliceType("amulet", "Splice.Issuance", "IssuanceConfig"),
);
export type IssuanceConfig = ValueOf<typeof IssuanceConfig>;

/** The free traffic every member gets: `burstAmount` bytes, refilled evenly over `burstWindow`. */
export const BaseRateTrafficLimits = t.record(
  { burstAmount: t.int64, burstWindow: RelTime },
  spliceType("amulet", "Splice.DecentralizedSynchronizer", "BaseRateTrafficLimits"),
);

export const SynchronizerFeesConfig = t.record(
  { baseRateTrafficLimits: BaseRateTrafficLimits, extraTrafficPrice: t.numeric(), readVsWriteScalingFactor: t.int64, minTopupAmount: t.int64 },
  spliceType("amulet", "Splice.DecentralizedSynchronizer", "SynchronizerFeesConfig"),
);

export const AmuletDecentralizedSynchronizerConfig = t.record(
  { requiredSynchronizers: t.list(t.text), activeSynchronizer: t.text, fees: SynchronizerFeesConfig },
  spliceType("amulet", "Splice.DecentralizedSynchronizer", "AmuletDecentralizedSynchronizerConfig"),
);

export const AmuletConfig = t.record(
  {
    transferConfig: TransferConfig,
    issuanceCurve: t.record({ initialValue: IssuanceConfig, futureValues: t.list(t.record({ _1: RelTime, _2: IssuanceConfig })) }),
    decentralizedSynchronizer: AmuletDecentralizedSynchronizerConfig,
    tickDuration: RelTime,
    transferPreapprovalFee: t.optional(t.numeric()),
  },
  spliceType("amulet", "Splice.AmuletConfig", "AmuletConfig"),
);
export type AmuletConfig = ValueOf<typeof AmuletConfig>;

export const ConfigSchedule = t.record(
  { initialValue: AmuletConfig, futureValues: t.list(t.record({ _1: t.time, _2: AmuletConfig })) },
  spliceType("amulet", "Splice.Schedule", "Schedule"),
);
export type ConfigSchedule = ValueOf<typeof ConfigSchedule>;

/** Splice's default: 1 USD per year of preapproval lifetime, charged per day. */
export const DEFAULT_TRANSFER_PREAPPROVAL_FEE_PER_DAY = Numeric.parse("1").div(Numeric.parse("365"));

/**
 * Scales USD fees into CC at a price, as Splice's `scaleFees (1.0 / amuletPrice)`: the inverse
 * price is rounded to scale 10 first, then multiplied in (not the same as dividing by the price).
 */
export function scaleFees(price: Numeric, usd: TransferConfig): TransferConfig {
  // perUsd.mul inline, not a named closure: tsx's keepNames would define its name on every call.
  const perUsd = Numeric.parse("1").div(price);
  return {
    createFee: { fee: perUsd.mul(usd.createFee.fee) },
    holdingFee: { rate: perUsd.mul(usd.holdingFee.rate) },
    transferFee: { initialRate: usd.transferFee.initialRate, steps: usd.transferFee.steps.map((s) => ({ _1: perUsd.mul(s._1), _2: s._2 })) },
    lockHolderFee: { fee: perUsd.mul(usd.lockHolderFee.fee) },
    extraFeaturedAppRewardAmount: perUsd.mul(usd.extraFeaturedAppRewardAmount),
    maxNumInputs: usd.maxNumInputs,
    maxNumOutputs: usd.maxNumOutputs,
    maxNumLockHolders: usd.maxNumLockHolders,
  };
}

/** Splice `chargeSteppedRate`: the initial rate up to the first step, then each step's rate. */
export function chargeSteppedRate(rate: ValueOf<typeof SteppedRate>, amount: Numeric): Numeric {
  let fee = Numeric.zero;
  let lower = Numeric.zero;
  let current = rate.initialRate;
  for (const { _1: step, _2: next } of rate.steps) {
    if (amount.lte(step)) break;
    fee = fee.add(step.sub(lower).mul(current));
    lower = step;
    current = next;
  }
  return fee.add(amount.sub(lower).mul(current));
}
