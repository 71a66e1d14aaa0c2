/**
 * `DELETE /v0/admin/transfer-preapprovals/by-party/{receiver-party}`: the operator, as provider,
 * cancels the receiver's preapproval (`TransferPreapproval_Cancel`); no fee is refunded.
 */
import { TransferPreapproval, TransferPreapproval_Cancel } from "../../templates/splice/transfer-preapproval.js";
import { lookupOperatorPreapproval } from "./operator-preapprovals.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function cancelOperatorPreapproval(deps: WalletDeps, receiver: string): Promise<void> {
  const preapproval = await lookupOperatorPreapproval(deps, receiver);
  await deps.client.exercise([deps.validator], TransferPreapproval, preapproval.contractId, TransferPreapproval_Cancel, {
    p: deps.validator,
  });
}
