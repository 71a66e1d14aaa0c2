/**
 * The validator app reports liveness once per open round by exercising its `ValidatorLicense`;
 * each report becomes a `ValidatorLivenessActivityRecord` that mints once its round issues.
 */
import { type LedgerClient } from "../ledger/ledger-client.js";
import { ValidatorLicense, ValidatorLicense_RecordValidatorLivenessActivity } from "../templates/splice/validator-license.js";
import { latestOpenRound, type NetworkState } from "../network/network-state.js";

export async function recordLiveness(client: LedgerClient, state: NetworkState, validator: string, now: bigint): Promise<boolean> {
  // The DSO's license: anyone can sign one naming itself as `dso` and this validator.
  const [license] = (await client.active(ValidatorLicense, [validator])).filter((l) => l.payload.dso === state.rules.payload.dso && l.payload.validator === validator);
  if (!license) return false;
  const round = latestOpenRound(state, now);
  const last = license.payload.faucetState?.lastReceivedFor.number;
  if (last !== undefined && last >= round.payload.round.number) return false;
  await client.exercise([validator], ValidatorLicense, license.contractId, ValidatorLicense_RecordValidatorLivenessActivity, {
    openRoundCid: round.contractId,
  });
  return true;
}
