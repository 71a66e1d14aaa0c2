/**
 * The sender's wallet archives its transfer offers once they expire (Splice's
 * `ExpireTransferOfferTrigger`), so the receiver no longer sees them and their status is final.
 * Expiry is not urgent (the status endpoint already reports an offer past its expiry as
 * expired), so the open offers are read at most once per `everyMicros` of ledger time rather
 * than on every pass of a busy automation loop.
 */
import { choiceOf } from "../ledger/ledger-client.js";
import { TransferOffer, type TransferOfferPayload } from "../templates/splice/wallet/transfer-offer.js";
import { actionCommandId } from "../wallet/contract-action.js";
import type { WalletDeps } from "../wallet/wallet-deps.js";
import { actOnAll } from "./act-on-each.js";
import type { WalletParties } from "./wallet-parties.js";

export function expireTransferOffers(deps: WalletDeps, parties: WalletParties, everyMicros = 1_000_000n): (now: bigint) => Promise<boolean> {
  let lastRead: bigint | undefined;
  return async (now) => {
    if (lastRead !== undefined && now - lastRead < everyMicros) return false;
    lastRead = now;
    const expired = (await deps.client.active(TransferOffer)).filter((o) => o.payload.dso === deps.dso && o.payload.expiresAt <= now);
    if (expired.length === 0) return false;
    const ours = new Set(await parties());
    return actOnAll(
      expired.filter((o) => ours.has(o.payload.sender)),
      async (o) => {
        const choice = choiceOf<TransferOfferPayload>(TransferOffer, "TransferOffer_Expire");
        await deps.client.exercise([o.payload.sender], TransferOffer, o.contractId, choice, { actor: o.payload.sender }, { commandId: actionCommandId("transfer-offer-expire", o.contractId) });
      },
    );
  };
}
