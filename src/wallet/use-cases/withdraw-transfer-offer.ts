/** `POST /v0/wallet/transfer-offers/{contract_id}/withdraw`: the sender takes the offer back; it is archived. */
import { TransferOffer, TransferOffer_Withdraw } from "../../templates/splice/wallet/transfer-offer.js";
import { actionCommandId } from "../support/contract-action.js";
import { actOnOffer, findTransferOffer } from "../support/find-transfer-offer.js";
import type { WalletDeps } from "../wallet-deps.js";

/** The reason the status endpoint reports as `withdrawn_reason`. */
export const WITHDRAWN_BY_SENDER = "withdrawn by the sender";

export async function withdrawTransferOffer(deps: WalletDeps, party: string, contractId: string): Promise<void> {
  const offer = await findTransferOffer(deps, party, contractId, "sender");
  const commandId = actionCommandId("transfer-offer-withdraw", offer.contractId);
  await actOnOffer(deps, offer, () =>
    deps.client.exercise([party], TransferOffer, offer.contractId, TransferOffer_Withdraw, { reason: WITHDRAWN_BY_SENDER }, { commandId }),
  );
}
