/**
 * `POST /v0/wallet/buy-traffic-requests`: the user asks its wallet to buy extra synchronizer
 * traffic for the validator hosting a party; the request is a `BuyTrafficRequest` the wallet
 * automation completes (paying from the user's holdings) or cancels with a reason
 * (automation/complete-buy-traffic-requests.ts). Exactly-once by tracking id, like offers.
 *
 * Every local party is hosted by this one participant only, so the member to top up is this
 * participant (`memberId`), migration 0; a party this participant does not know is refused.
 */
import { currentConfig } from "../../templates/splice/amulet-rules.js";
import { BuyTrafficRequest } from "../../templates/splice/wallet/buy-traffic-request.js";
import { submitTracked } from "../support/tracked-submission.js";
import { parseExpiresAt, parseKnownParty, parseTrackingId } from "../support/tracked-input.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { type ContractId } from "../../ledger/ids.js";

export interface CreateBuyTrafficRequestInput {
  readonly party: string;
  readonly receivingValidator: string;
  readonly synchronizerId: string;
  readonly trafficAmount: bigint;
  /** Unix microseconds. */
  readonly expiresAt: bigint;
  readonly trackingId: string;
  /** The participant hosting the node's parties (`PAR::…`). */
  readonly participantId: string;
}

/** Returns the request's contract id. */
export async function createBuyTrafficRequest(deps: WalletDeps, input: CreateBuyTrafficRequestInput): Promise<ContractId> {
  const trackingId = parseTrackingId(input.trackingId);
  const expiresAt = parseExpiresAt(deps, input.expiresAt);
  await parseKnownParty(deps, "receiving_validator_party_id", input.receivingValidator);
  const sync = currentConfig((await deps.network.read()).rules.payload).decentralizedSynchronizer;
  if (!sync.requiredSynchronizers.includes(input.synchronizerId)) {
    throw walletErrors.badRequest(`domain_id: ${JSON.stringify(input.synchronizerId)} is not a synchronizer of this network (${sync.requiredSynchronizers.join(", ")})`);
  }
  if (input.trafficAmount <= 0n || input.trafficAmount < sync.fees.minTopupAmount) {
    throw walletErrors.badRequest(`traffic_amount: ${input.trafficAmount} bytes is below the minimum top-up of ${sync.fees.minTopupAmount} bytes`);
  }
  const { party } = input;
  return submitTracked(deps, party, "buy-traffic-request", trackingId, (commandId) =>
    deps.client.create(
      [party],
      BuyTrafficRequest,
      {
        dso: deps.dso,
        endUserParty: party,
        expiresAt,
        trackingId,
        trafficAmount: input.trafficAmount,
        memberId: input.participantId,
        synchronizerId: input.synchronizerId,
        migrationId: 0n,
      },
      { commandId },
    ),
  );
}
