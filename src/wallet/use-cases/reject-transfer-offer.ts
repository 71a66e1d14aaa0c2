/** `POST /v0/wallet/transfer-offers/{contract_id}/reject`: the receiver declines; the offer is archived. */
import { TransferOffer, TransferOffer_Reject } from "../../templates/splice/wallet/transfer-offer.js";
import { actionCommandId } from "../support/contract-action.js";
import { actOnOffer, findTransferOffer } from "../support/find-transfer-offer.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function rejectTransferOffer(deps: WalletDeps, party: string, contractId: string): Promise<void> {
  const offer = await findTransferOffer(deps, party, contractId, "receiver");
  const commandId = actionCommandId("transfer-offer-reject", offer.contractId);
  await actOnOffer(deps, offer, () => deps.client.exercise([party], TransferOffer, offer.contractId, TransferOffer_Reject, {}, { commandId }));
}
