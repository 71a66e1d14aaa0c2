/** Turns the operator's network parameters into the `AmuletConfig` the DSO publishes. */
import type { NetworkConfig } from "../config/network.js";
import { Numeric } from "../ledger/numeric.js";
import type { AmuletConfig } from "../templates/splice/amulet-config.js";

const zero = Numeric.zero;

export function amuletConfigOf(network: NetworkConfig, synchronizerId: string): AmuletConfig {
  const i = network.issuance;
  return {
    // No transfer fees on this network: a transfer costs only the holding fees of its inputs.
    transferConfig: {
      createFee: { fee: zero },
      holdingFee: { rate: network.holdingFeeUsdPerRound },
      transferFee: { initialRate: zero, steps: [] },
      lockHolderFee: { fee: zero },
      extraFeaturedAppRewardAmount: network.extraFeaturedAppRewardAmountUsd,
      maxNumInputs: BigInt(network.maxNumInputs),
      maxNumOutputs: BigInt(network.maxNumOutputs),
      maxNumLockHolders: BigInt(network.maxNumLockHolders),
    },
    issuanceCurve: {
      initialValue: {
        amuletToIssuePerYear: i.amuletToIssuePerYear,
        validatorRewardPercentage: i.validatorRewardPercentage,
        appRewardPercentage: i.appRewardPercentage,
        validatorRewardCap: i.validatorRewardCap,
        featuredAppRewardCap: i.featuredAppRewardCap,
        unfeaturedAppRewardCap: i.unfeaturedAppRewardCap,
        optValidatorFaucetCap: i.validatorFaucetCapUsd,
      },
      futureValues: [],
    },
    decentralizedSynchronizer: {
      requiredSynchronizers: [synchronizerId],
      activeSynchronizer: synchronizerId,
      fees: {
        baseRateTrafficLimits: {
          burstAmount: BigInt(network.baseRateBurstAmountBytes),
          burstWindow: { microseconds: BigInt(network.baseRateBurstWindowSeconds) * 1_000_000n },
        },
        extraTrafficPrice: network.extraTrafficPriceUsdPerMB,
        readVsWriteScalingFactor: 4n,
        minTopupAmount: BigInt(network.minTopupAmountBytes),
      },
    },
    tickDuration: { microseconds: BigInt(network.tickDurationSeconds) * 1_000_000n },
    // Splice keeps the preapproval fee per day of lifetime.
    transferPreapprovalFee: network.transferPreapprovalFeeUsdPerYear.div(Numeric.parse("365")),
  };
}
