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
  // From the offer index: no read of the offers. All of them, so that actOnAll goes past a run's
  // worth that fails (and stops after one that acts).
  const due = await deps.offers.expired(now, deps.dso, (sender) => ours.has(sender));
  return actOnAll(due, async ({ contractId, sender }) => {
    await deps.client.exercise([sender], TransferOffer, contractId, TransferOffer_Expire, { actor: sender }, { commandId: actionCommandId("transfer-offer-expire", contractId) });
  });
}
