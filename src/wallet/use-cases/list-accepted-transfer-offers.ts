/**
 * `GET /v0/wallet/accepted-transfer-offers`: accepted offers where the party is sender or
 * receiver that the sender's wallet has not completed yet (it does so on its next automation
 * pass, so this list is usually empty or short-lived).
 */
import type { Active } from "../../ledger/ledger-client.js";
import { AcceptedTransferOffer, type AcceptedTransferOfferPayload } from "../../templates/splice/wallet/transfer-offer.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function listAcceptedTransferOffers(deps: WalletDeps, party: string): Promise<Active<AcceptedTransferOfferPayload>[]> {
  const accepted = await deps.client.active(AcceptedTransferOffer, [party]);
  return accepted.filter((o) => o.payload.dso === deps.dso && (o.payload.sender === party || o.payload.receiver === party));
}
