/**
 * `POST /v0/wallet/transfer-offers/{tracking_id}/status`, for the sender and the receiver:
 * 1. the offer the caller created through this wallet (its tracked create's command id gives the
 *    creating transaction) is answered from the offer index (offer-index.ts) when it knows it,
 *    else followed through the ledger: while the offer is active it is `created` (`failed/expired`
 *    once past its expiry, before the sender's wallet archives it); once accepted, the
 *    `AcceptedTransferOffer` is `accepted` while active; the choice that consumed it decides
 *    `completed` (the transfer's transaction and the receiver's new Amulet) or `failed` (rejected,
 *    withdrawn with the reason, expired) — offer-outcome.ts. Each step is a point lookup: the
 *    contract by id, else the wallet's own command id for the action that ended it
 *    (contract-action.ts); only an action taken outside the wallet is found by scanning forward.
 * 2. otherwise (the caller is the receiver, or the offer was created on `/v2`) the offer index
 *    answers with the same statuses, also after the offer ended, for every offer active when the
 *    node started or created since.
 * Anything else is 404 (as the OpenAPI says for ids "before the beginning of the wallet
 * transaction log").
 */
import { fromDamlJson } from "../../ledger/daml-type.js";
import type { CreateNodeRecord, TransactionRecord } from "../../ledger/records.js";
import { AcceptedTransferOffer, TransferOffer, type TransferOfferPayload } from "../../templates/splice/wallet/transfer-offer.js";
import { consumptionOf, type PossibleAction } from "../support/contract-action.js";
import { isOf } from "../support/ledger-scan.js";
import { offerStepOf, type TransferOfferStatus } from "../support/offer-outcome.js";
import { trackedCreateOffset } from "../support/tracked-submission.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export type { TransferOfferFailure, TransferOfferStatus } from "../support/offer-outcome.js";

export async function getTransferOfferStatus(deps: WalletDeps, party: string, trackingId: string): Promise<TransferOfferStatus> {
  const now = deps.clock.now();
  const created = await trackedCreateOffset(deps, party, "transfer-offer", trackingId);
  if (created !== undefined) {
    const known = await deps.offers.statusOfCreated(party, trackingId, created, now);
    if (known) return known;
    const transaction = await deps.store.transactionByOffset(created);
    const offer = transaction?.nodes.find((n): n is CreateNodeRecord => n.kind === "create" && isOf(n, TransferOffer));
    if (transaction && offer) return followOffer(deps, transaction, offer);
  }
  const status = await deps.offers.status(party, trackingId, deps.dso, now);
  if (status) return status;
  throw walletErrors.notFound(`no transfer offer with tracking id ${JSON.stringify(trackingId)} is known`);
}

type Sides = { readonly sender: string; readonly receiver: string };

/** The wallet's own actions that can end an offer, then an accepted offer (see contract-action.ts). */
const offerActions = (p: Sides, validator: string): PossibleAction[] => [
  { action: "transfer-offer-accept", actAs: [p.receiver] },
  { action: "transfer-offer-reject", actAs: [p.receiver] },
  { action: "transfer-offer-withdraw", actAs: [p.sender] },
  { action: "transfer-offer-expire", actAs: [p.sender] },
  { action: "accepted-transfer-offer-complete", actAs: [p.sender, validator] },
  { action: "accepted-transfer-offer-abort", actAs: [p.sender] },
  { action: "accepted-transfer-offer-expire", actAs: [p.sender] },
];

/** Follows an offer from its creation to the choice that ended it. */
async function followOffer(deps: WalletDeps, created: TransactionRecord, offer: CreateNodeRecord): Promise<TransferOfferStatus> {
  const possible = offerActions(fromDamlJson(TransferOffer.payload, offer.payload) as TransferOfferPayload, deps.validator);
  let contractId = offer.contractId;
  let from = created.offset;
  for (let step = 0; ; step++) {
    const active = step === 0 ? await deps.client.contract(TransferOffer, contractId) : await deps.client.contract(AcceptedTransferOffer, contractId);
    if (active) {
      if (step === 0 && active.payload.expiresAt <= deps.clock.now()) return { status: "failed", failureKind: "expired" };
      return { status: step === 0 ? "created" : "accepted", transactionId: active.record.createUpdateId, contractId };
    }
    const consumed = await consumptionOf(deps, contractId, from, possible);
    // Not consumed, yet not active a moment ago: it was consumed in between; the next read sees it.
    if (!consumed) throw walletErrors.unavailable("the transfer offer changed while its status was read; retry");
    const next = offerStepOf(consumed.transaction, consumed.node);
    if (next.kind === "ended") return next.status;
    contractId = next.acceptedCid;
    from = consumed.transaction.offset;
  }
}
