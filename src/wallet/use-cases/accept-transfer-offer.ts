/**
 * `POST /v0/wallet/transfer-offers/{contract_id}/accept`: the receiver accepts; the ledger
 * replaces the offer by an `AcceptedTransferOffer` that the sender's wallet completes on its own.
 */
import { TransferOffer, TransferOffer_Accept } from "../../templates/splice/wallet/transfer-offer.js";
import { actionCommandId } from "../support/contract-action.js";
import { actOnOffer, findTransferOffer } from "../support/find-transfer-offer.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

/** Returns the accepted offer's contract id. */
export async function acceptTransferOffer(deps: WalletDeps, party: string, contractId: string): Promise<string> {
  const offer = await findTransferOffer(deps, party, contractId, "receiver");
  if (offer.payload.expiresAt <= deps.clock.now()) throw walletErrors.badRequest(`transfer offer ${contractId} has expired`);
  const { result } = await actOnOffer(deps, offer, () =>
    deps.client.exercise(
      [party],
      TransferOffer,
      offer.contractId,
      TransferOffer_Accept,
      {},
      { commandId: actionCommandId("transfer-offer-accept", offer.contractId) },
    ),
  );
  return result.acceptedTransferOffer;
}
