/**
 * The offer an accept, reject or withdraw names, seen from the caller: it must be an active
 * `TransferOffer` on this network and the caller must be on the side that may act (the receiver
 * accepts and rejects, the sender withdraws). Anything else is 404, the only refusal the
 * OpenAPI lists for these endpoints; the message says which case it is.
 */
import type { Active } from "../../ledger/ledger-client.js";
import { isContractId } from "../../ledger/ids.js";
import { TransferOffer, type TransferOfferPayload } from "../../templates/splice/wallet/transfer-offer.js";
import { actingOnNamed } from "./contention.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export type OfferSide = "sender" | "receiver";

const offerNotFound = (contractId: string) => walletErrors.notFound(`transfer offer ${contractId} not found`);

export async function findTransferOffer(deps: WalletDeps, party: string, contractId: string, side: OfferSide): Promise<Active<TransferOfferPayload>> {
  const offer = isContractId(contractId) ? await deps.client.contract(TransferOffer, contractId) : undefined;
  const visible = offer && offer.payload.dso === deps.dso && (offer.payload.sender === party || offer.payload.receiver === party);
  if (!offer || !visible) throw offerNotFound(contractId);
  if (offer.payload[side] !== party) {
    const action = side === "sender" ? "only its sender can withdraw it" : "only its receiver can accept or reject it";
    throw walletErrors.notFound(`transfer offer ${contractId} not found among the offers you can act on: ${action}`);
  }
  return offer;
}

/** Runs the caller's action on an offer `findTransferOffer` returned; a loser of a race for it gets 404 (contention.ts). */
export function actOnOffer<T>(deps: WalletDeps, offer: Active<TransferOfferPayload>, run: () => Promise<T>): Promise<T> {
  const isActive = async () => (await deps.client.contract(TransferOffer, offer.contractId)) !== undefined;
  return actingOnNamed(isActive, () => offerNotFound(offer.contractId), run);
}
