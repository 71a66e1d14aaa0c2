/** What a preapproval lifetime costs in CC, computed as `AmuletRules` will charge it. */
import type { NetworkState } from "../dso/network-state.js";
import { Numeric } from "../ledger/numeric.js";
import { DEFAULT_TRANSFER_PREAPPROVAL_FEE_PER_DAY } from "../templates/splice/amulet-config.js";
import type { OpenMiningRoundPayload } from "../templates/splice/round.js";
import { MICROS_PER_DAY } from "../templates/splice/types.js";

export function preapprovalFeeFor(state: NetworkState, round: OpenMiningRoundPayload, durationMicros: bigint): Numeric {
  const perDay = state.rules.payload.configSchedule.initialValue.transferPreapprovalFee ?? DEFAULT_TRANSFER_PREAPPROVAL_FEE_PER_DAY;
  const days = Numeric.fromUnits((durationMicros * 10_000_000_000n) / MICROS_PER_DAY);
  return days.mul(perDay).div(round.amuletPrice);
}
