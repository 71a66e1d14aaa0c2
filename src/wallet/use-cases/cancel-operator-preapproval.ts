/**
 * `DELETE /v0/admin/transfer-preapprovals/by-party/{receiver-party}`: the operator, as provider,
 * cancels the receiver's preapproval (`TransferPreapproval_Cancel`); no fee is refunded.
 */
import { choiceOf } from "../../ledger/ledger-client.js";
import { TransferPreapproval } from "../../templates/splice/transfer-preapproval.js";
import { lookupOperatorPreapproval } from "./operator-preapprovals.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function cancelOperatorPreapproval(deps: WalletDeps, receiver: string): Promise<void> {
  const preapproval = await lookupOperatorPreapproval(deps, receiver);
  await deps.client.exercise([deps.validator], TransferPreapproval, preapproval.contractId, choiceOf(TransferPreapproval, "TransferPreapproval_Cancel"), {
    p: deps.validator,
  });
}
