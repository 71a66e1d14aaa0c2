/**
 * The sender's wallet archives its transfer offers once they expire (Splice's
 * `ExpireTransferOfferTrigger`), so the receiver no longer sees them and their status is final.
 */
import { choiceOf } from "../ledger/ledger-client.js";
import { TransferOffer, type TransferOfferPayload } from "../templates/splice/wallet/transfer-offer.js";
import type { WalletDeps } from "../wallet/wallet-deps.js";
import { actOnEach } from "./act-on-each.js";
import type { WalletParties } from "./wallet-parties.js";

export async function expireTransferOffers(deps: WalletDeps, parties: WalletParties, now: bigint): Promise<boolean> {
  const expired = (await deps.client.active(TransferOffer)).filter((o) => o.payload.dso === deps.dso && o.payload.expiresAt <= now);
  if (expired.length === 0) return false;
  const ours = new Set(await parties());
  return actOnEach(
    expired.filter((o) => ours.has(o.payload.sender)),
    async (o) => {
      await deps.client.exercise([o.payload.sender], TransferOffer, o.contractId, choiceOf<TransferOfferPayload>(TransferOffer, "TransferOffer_Expire"), {
        actor: o.payload.sender,
      });
    },
  );
}
