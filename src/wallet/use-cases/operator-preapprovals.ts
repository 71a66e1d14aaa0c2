/**
 * `GET /v0/admin/transfer-preapprovals` and `GET /v0/admin/transfer-preapprovals/by-party/{receiver-party}`:
 * the preapprovals whose provider is the validator operator (those it pays for and renews).
 * The lookup shows the receiver's longest-lived one; expired ones count until the DSO archives them.
 */
import type { Active } from "../../ledger/ledger-client.js";
import { TransferPreapproval, type TransferPreapprovalPayload } from "../../templates/splice/transfer-preapproval.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { parsePartyId } from "../support/wallet-input.js";

export async function listOperatorPreapprovals(deps: WalletDeps): Promise<Active<TransferPreapprovalPayload>[]> {
  const all = await deps.client.active(TransferPreapproval, [deps.validator]);
  return all.filter((p) => p.payload.provider === deps.validator && p.payload.dso === deps.dso);
}

export async function lookupOperatorPreapproval(deps: WalletDeps, receiverRaw: string): Promise<Active<TransferPreapprovalPayload>> {
  const receiver = parsePartyId("receiver-party", receiverRaw);
  const mine = (await listOperatorPreapprovals(deps)).filter((p) => p.payload.receiver === receiver);
  const longest = mine.sort((a, b) => (a.payload.expiresAt > b.payload.expiresAt ? -1 : 1))[0];
  if (!longest) throw walletErrors.notFound(`No TransferPreapproval with provider ${deps.validator} found for receiver ${receiver}`);
  return longest;
}
