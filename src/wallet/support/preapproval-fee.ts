/** What a preapproval lifetime costs in CC, computed exactly as `AmuletRules` will charge it. */
import type { NetworkState } from "../../network/network-state.js";
import type { Numeric } from "../../ledger/numeric.js";
import { currentConfig, preapprovalFeeUsd } from "../../templates/splice/amulet-rules.js";
import type { OpenMiningRoundPayload } from "../../templates/splice/round.js";

export function preapprovalFeeFor(state: NetworkState, round: OpenMiningRoundPayload, durationMicros: bigint): Numeric {
  return preapprovalFeeUsd(currentConfig(state.rules.payload), durationMicros).div(round.amuletPrice);
}
