/**
 * A transfer offer's status (Splice's GetTransferOfferStatusResponse) and what the choice that
 * consumed a `TransferOffer` or `AcceptedTransferOffer` means for it — shared by the status
 * lookup that follows an offer through the ledger and the offer index fed by commits.
 */
import type { ExerciseNodeRecord, TransactionRecord } from "../../ledger/records.js";
import {
  AcceptedTransferOffer_Abort,
  AcceptedTransferOffer_Complete,
  AcceptedTransferOffer_Expire,
  AcceptedTransferOffer_Withdraw,
  TransferOffer_Accept,
  TransferOffer_Expire,
  TransferOffer_Reject,
  TransferOffer_Withdraw,
} from "../../templates/splice/wallet/transfer-offer.js";
import { exerciseOf } from "./ledger-scan.js";

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
    case TransferOffer_Accept.name:
      return { kind: "accepted", acceptedCid: exerciseOf(TransferOffer_Accept, node).result.acceptedTransferOffer };
    case AcceptedTransferOffer_Complete.name: {
      const { result } = exerciseOf(AcceptedTransferOffer_Complete, node);
      const [amulet] = result.transferResult.createdAmulets;
      return ended({ status: "completed", transactionId: transaction.updateId, contractId: amulet?.value ?? "" });
    }
    case TransferOffer_Reject.name:
    case AcceptedTransferOffer_Withdraw.name: // the receiver takes the acceptance back
      return ended({ status: "failed", failureKind: "rejected" });
    case TransferOffer_Withdraw.name:
    case AcceptedTransferOffer_Abort.name: {
      const { argument } = node.choice === TransferOffer_Withdraw.name ? exerciseOf(TransferOffer_Withdraw, node) : exerciseOf(AcceptedTransferOffer_Abort, node);
      return ended({ status: "failed", failureKind: "withdrawn", withdrawnReason: argument.reason });
    }
    case TransferOffer_Expire.name:
    case AcceptedTransferOffer_Expire.name:
      return ended({ status: "failed", failureKind: "expired" });
    default: // `Archive` by a signatory: the sender gave it up
      return ended({ status: "failed", failureKind: "withdrawn", withdrawnReason: `archived with ${node.choice}` });
  }
}
