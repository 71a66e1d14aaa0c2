/**
 * Deterministic command ids for the wallet's actions on one workflow contract (accept, reject,
 * withdraw, complete, abort, expire, cancel): `<action>:<contract id>`. The ledger's command
 * deduplication then doubles as an index: the transaction that took an action on a contract is
 * one point lookup away (no scan), which the status endpoints use; and the same action on the
 * same contract can never be submitted twice by the wallet.
 */
import { changeKeyOf } from "../../ledger/engine.js";
import type { ExerciseNodeRecord, TransactionRecord } from "../../ledger/records.js";
import { findConsumption, type Consumption } from "./ledger-scan.js";
import type { WalletDeps } from "../wallet-deps.js";

export type ContractAction =
  | "transfer-offer-accept"
  | "transfer-offer-reject"
  | "transfer-offer-withdraw"
  | "transfer-offer-expire"
  | "accepted-transfer-offer-complete"
  | "accepted-transfer-offer-abort"
  | "accepted-transfer-offer-expire"
  | "buy-traffic-request-complete"
  | "buy-traffic-request-cancel"
  | "buy-traffic-request-expire";

export const actionCommandId = (action: ContractAction, contractId: string): string => `${action}:${contractId}`;

/** An action the wallet may have taken on a contract: which command and acting parties. */
export interface PossibleAction {
  readonly action: ContractAction;
  readonly actAs: readonly string[];
}

/**
 * The transaction that consumed `contractId`: first by the wallet's own command ids for the
 * actions that could have (point lookups), else by scanning forward from `afterOffset` (an action
 * taken outside the wallet, e.g. directly on `/v2`).
 */
export async function consumptionOf(deps: WalletDeps, contractId: string, afterOffset: bigint, possible: readonly PossibleAction[]): Promise<Consumption | undefined> {
  const store = deps.store;
  for (const p of possible) {
    const accepted = await store.acceptedCommand(changeKeyOf(deps.client.userId, p.actAs, actionCommandId(p.action, contractId)));
    const transaction: TransactionRecord | undefined = accepted && (await store.transactionByOffset(accepted.offset));
    const node = transaction?.nodes.find((n): n is ExerciseNodeRecord => n.kind === "exercise" && n.consuming && n.contractId === contractId);
    if (transaction && node) return { transaction, node };
  }
  return findConsumption(store, afterOffset, contractId);
}
