/**
 * A transfer offer's status (Splice's GetTransferOfferStatusResponse) and what the choice that
 * consumed a `TransferOffer` or `AcceptedTransferOffer` means for it — shared by the status
 * lookup that follows an offer through the ledger and the offer index fed by commits.
 */
import type { ExerciseNodeRecord, TransactionRecord } from "../../ledger/records.js";
import type { TransferResult } from "../../templates/splice/transfer-types.js";
import { AcceptedTransferOffer, TransferOffer } from "../../templates/splice/wallet/transfer-offer.js";
import { exerciseOf, isOf } from "./ledger-scan.js";

export type TransferOfferFailure = "expired" | "rejected" | "withdrawn";

export type TransferOfferStatus =
  | { readonly status: "created" | "accepted" | "completed"; readonly transactionId: string; readonly contractId: string }
  | { readonly status: "failed"; readonly failureKind: TransferOfferFailure; readonly withdrawnReason?: string };

/** Accepted: the offer goes on as this AcceptedTransferOffer; ended: its final status. */
export type OfferStep = { readonly kind: "accepted"; readonly acceptedCid: string } | { readonly kind: "ended"; readonly status: TransferOfferStatus };

/** The step a consuming exercise on an offer or accepted offer takes it to. */
export function offerStepOf(transaction: TransactionRecord, node: ExerciseNodeRecord): OfferStep {
  const ended = (status: TransferOfferStatus): OfferStep => ({ kind: "ended", status });
  switch (node.choice) {
    case "TransferOffer_Accept":
      return { kind: "accepted", acceptedCid: exerciseOf<unknown, { acceptedTransferOffer: string }>(TransferOffer, node).result.acceptedTransferOffer };
    case "AcceptedTransferOffer_Complete": {
      const { result } = exerciseOf<unknown, { transferResult: TransferResult }>(AcceptedTransferOffer, node);
      const [amulet] = result.transferResult.createdAmulets;
      return ended({ status: "completed", transactionId: transaction.updateId, contractId: amulet?.value ?? "" });
    }
    case "TransferOffer_Reject":
    case "AcceptedTransferOffer_Withdraw": // the receiver takes the acceptance back
      return ended({ status: "failed", failureKind: "rejected" });
    case "TransferOffer_Withdraw":
    case "AcceptedTransferOffer_Abort": {
      const { argument } = exerciseOf<{ reason: string }, unknown>(isOf(node, TransferOffer) ? TransferOffer : AcceptedTransferOffer, node);
      return ended({ status: "failed", failureKind: "withdrawn", withdrawnReason: argument.reason });
    }
    case "TransferOffer_Expire":
    case "AcceptedTransferOffer_Expire":
      return ended({ status: "failed", failureKind: "expired" });
    default: // `Archive` by a signatory: the sender gave it up
      return ended({ status: "failed", failureKind: "withdrawn", withdrawnReason: `archived with ${node.choice}` });
  }
}
