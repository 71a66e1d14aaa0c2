/**
 * The sender's wallet archives its transfer offers once they expire (Splice's
 * `ExpireTransferOfferTrigger`), so the receiver no longer sees them and their status is final.
 * It runs on the automation loop's clock ticks (expiry comes with time alone).
 */
import { TransferOffer, TransferOffer_Expire } from "../../templates/splice/wallet/transfer-offer.js";
import { actionCommandId } from "../support/contract-action.js";
import type { WalletDeps } from "../wallet-deps.js";
import { actOnAll } from "./act-on-each.js";
import type { WalletParties } from "./wallet-parties.js";

export async function expireTransferOffers(deps: WalletDeps, parties: WalletParties, now: bigint): Promise<boolean> {
  const ours = new Set(await parties());
  // The offer index says whether any is due, so a tick with none reads nothing.
  if (!(await deps.offers.anyExpired(now, deps.dso, (sender) => ours.has(sender)))) return false;
  const expired = (await deps.client.active(TransferOffer)).filter((o) => o.payload.dso === deps.dso && o.payload.expiresAt <= now && ours.has(o.payload.sender));
  return actOnAll(
    expired,
    async (o) => {
      const choice = TransferOffer_Expire;
      await deps.client.exercise([o.payload.sender], TransferOffer, o.contractId, choice, { actor: o.payload.sender }, { commandId: actionCommandId("transfer-offer-expire", o.contractId) });
    },
  );
}
