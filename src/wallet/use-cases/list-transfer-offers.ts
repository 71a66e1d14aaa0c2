/** `GET /v0/wallet/transfer-offers`: open offers where the party is sender or receiver, oldest first. */
import type { Active } from "../../ledger/ledger-client.js";
import { TransferOffer, type TransferOfferPayload } from "../../templates/splice/wallet/transfer-offer.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function listTransferOffers(deps: WalletDeps, party: string): Promise<Active<TransferOfferPayload>[]> {
  const offers = await deps.client.active(TransferOffer, [party]);
  return offers.filter((o) => o.payload.dso === deps.dso && (o.payload.sender === party || o.payload.receiver === party));
}
