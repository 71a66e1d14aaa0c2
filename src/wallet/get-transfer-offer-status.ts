/**
 * `POST /v0/wallet/transfer-offers/{tracking_id}/status`, derived from the ledger:
 * 1. the offer the caller created through this wallet (found by the tracked create's command id)
 *    is followed: while the offer is active it is `created` (`failed/expired` once past its
 *    expiry, before the sender's wallet archives it); once accepted, the `AcceptedTransferOffer`
 *    is `accepted` while active; the choice that consumed it decides `completed` (the transfer's
 *    transaction and the receiver's new Amulet) or `failed` (rejected, withdrawn with the reason,
 *    expired). Each step is a point lookup: the contract by id, else the wallet's own command id
 *    for the action that ended it (contract-action.ts); only an action taken outside the wallet
 *    is found by scanning forward from the previous step.
 * 2. otherwise (the caller is the receiver, or the offer was created on `/v2`) an active
 *    `TransferOffer` or `AcceptedTransferOffer` of the caller with the tracking id answers.
 * Anything else is 404 (as the OpenAPI says for ids "before the beginning of the wallet
 * transaction log"): a receiver sees the status while the offer is open or accepted.
 */
import { fromDamlJson } from "../ledger/daml-type.js";
import type { CreateNodeRecord, TransactionRecord } from "../ledger/records.js";
import { AcceptedTransferOffer, TransferOffer, type TransferOfferPayload } from "../templates/splice/wallet/transfer-offer.js";
import type { TransferResult } from "../templates/splice/transfer-types.js";
import { consumptionOf, type PossibleAction } from "./contract-action.js";
import { exerciseOf, isOf } from "./ledger-scan.js";
import { trackedCreate } from "./tracked-submission.js";
import type { WalletDeps } from "./wallet-deps.js";
import { walletErrors } from "./wallet-error.js";

export type TransferOfferFailure = "expired" | "rejected" | "withdrawn";

export type TransferOfferStatus =
  | { readonly status: "created" | "accepted" | "completed"; readonly transactionId: string; readonly contractId: string }
  | { readonly status: "failed"; readonly failureKind: TransferOfferFailure; readonly withdrawnReason?: string };

export async function getTransferOfferStatus(deps: WalletDeps, party: string, trackingId: string): Promise<TransferOfferStatus> {
  const created = await trackedCreate(deps, party, "transfer-offer", trackingId);
  const offer = created?.nodes.find((n): n is CreateNodeRecord => n.kind === "create" && isOf(n, TransferOffer));
  if (created && offer) return followOffer(deps, created, offer);
  const active = await activeStatus(deps, party, trackingId);
  if (active) return active;
  throw walletErrors.notFound(`no transfer offer with tracking id ${JSON.stringify(trackingId)} is known`);
}

type Sides = { readonly sender: string; readonly receiver: string; readonly trackingId: string; readonly dso: string };

async function activeStatus(deps: WalletDeps, party: string, trackingId: string): Promise<TransferOfferStatus | undefined> {
  const mine = <P extends Sides>(c: { payload: P }) => c.payload.trackingId === trackingId && c.payload.dso === deps.dso && (c.payload.sender === party || c.payload.receiver === party);
  // The caller's own offer first: a receiver may hold offers of several senders with one tracking id.
  const ownFirst = <P extends Sides>(a: { payload: P }, b: { payload: P }) => Number(b.payload.sender === party) - Number(a.payload.sender === party);
  const [offer] = (await deps.client.active(TransferOffer, [party])).filter(mine).sort(ownFirst);
  if (offer) {
    if (offer.payload.expiresAt <= deps.clock.now()) return { status: "failed", failureKind: "expired" };
    return { status: "created", transactionId: offer.record.createUpdateId, contractId: offer.contractId };
  }
  const [accepted] = (await deps.client.active(AcceptedTransferOffer, [party])).filter(mine).sort(ownFirst);
  if (accepted) return { status: "accepted", transactionId: accepted.record.createUpdateId, contractId: accepted.contractId };
  return undefined;
}

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
    const { transaction, node } = consumed;
    switch (node.choice) {
      case "TransferOffer_Accept":
        contractId = exerciseOf<unknown, { acceptedTransferOffer: string }>(TransferOffer, node).result.acceptedTransferOffer;
        from = transaction.offset;
        continue;
      case "AcceptedTransferOffer_Complete": {
        const { result } = exerciseOf<unknown, { transferResult: TransferResult }>(AcceptedTransferOffer, node);
        const [amulet] = result.transferResult.createdAmulets;
        return { status: "completed", transactionId: transaction.updateId, contractId: amulet?.value ?? "" };
      }
      case "TransferOffer_Reject":
      case "AcceptedTransferOffer_Withdraw": // the receiver takes the acceptance back
        return { status: "failed", failureKind: "rejected" };
      case "TransferOffer_Withdraw":
      case "AcceptedTransferOffer_Abort": {
        const { argument } = exerciseOf<{ reason: string }, unknown>(isOf(node, TransferOffer) ? TransferOffer : AcceptedTransferOffer, node);
        return { status: "failed", failureKind: "withdrawn", withdrawnReason: argument.reason };
      }
      case "TransferOffer_Expire":
      case "AcceptedTransferOffer_Expire":
        return { status: "failed", failureKind: "expired" };
      default: // `Archive` by a signatory: the sender gave it up
        return { status: "failed", failureKind: "withdrawn", withdrawnReason: `archived with ${node.choice}` };
    }
  }
}
