/**
 * `POST /v0/wallet/buy-traffic-requests/{tracking_id}/status`, derived from the ledger like the
 * transfer-offer status: an active request is `created` (`failed/expired` once past its expiry);
 * otherwise the request the caller created through this wallet is followed to the choice that
 * consumed it (by the automation's command ids, else a forward scan): `BuyTrafficRequest_Complete` is `completed`, `_Cancel` is `failed/rejected` with
 * the automation's reason, `_Expire` is `failed/expired`. Unknown ids answer 404.
 */
import { BuyTrafficRequest, BuyTrafficRequest_Cancel, BuyTrafficRequest_Complete, BuyTrafficRequest_Expire } from "../../templates/splice/wallet/buy-traffic-request.js";
import { consumptionOf } from "../support/contract-action.js";
import { exerciseOf, isOf } from "../support/ledger-scan.js";
import { trackedCreate } from "../support/tracked-submission.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export type BuyTrafficRequestStatus =
  | { readonly status: "created" }
  | { readonly status: "completed"; readonly transactionId: string }
  | { readonly status: "failed"; readonly failureReason: "expired" | "rejected"; readonly rejectionReason?: string };

export async function getBuyTrafficRequestStatus(deps: WalletDeps, party: string, trackingId: string): Promise<BuyTrafficRequestStatus> {
  const created = await trackedCreate(deps, party, "buy-traffic-request", trackingId);
  const request = created?.nodes.find((n) => n.kind === "create" && isOf(n, BuyTrafficRequest));
  const active = request
    ? await deps.client.contract(BuyTrafficRequest, request.contractId)
    : (await deps.client.active(BuyTrafficRequest, [party])).find((r) => r.payload.endUserParty === party && r.payload.trackingId === trackingId && r.payload.dso === deps.dso);
  if (active) return active.payload.expiresAt <= deps.clock.now() ? { status: "failed", failureReason: "expired" } : { status: "created" };
  if (!created || !request) throw walletErrors.notFound(`no buy traffic request with tracking id ${JSON.stringify(trackingId)} is known`);
  const consumed = await consumptionOf(deps, request.contractId, created.offset, [
    { action: "buy-traffic-request-complete", actAs: [party, deps.validator] },
    { action: "buy-traffic-request-cancel", actAs: [party] },
    { action: "buy-traffic-request-expire", actAs: [party] },
  ]);
  if (!consumed) throw walletErrors.unavailable("the buy traffic request changed while its status was read; retry");
  const { transaction, node } = consumed;
  switch (node.choice) {
    case BuyTrafficRequest_Complete.name:
      return { status: "completed", transactionId: transaction.updateId };
    case BuyTrafficRequest_Cancel.name:
      return { status: "failed", failureReason: "rejected", rejectionReason: exerciseOf(BuyTrafficRequest_Cancel, node).argument.reason };
    case BuyTrafficRequest_Expire.name:
      return { status: "failed", failureReason: "expired" };
    default:
      return { status: "failed", failureReason: "rejected", rejectionReason: `archived with ${node.choice}` };
  }
}
