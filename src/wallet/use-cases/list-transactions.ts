/**
 * `POST /v0/wallet/transactions`: the party's wallet history, newest first, a page at a time
 * (Splice pages its transaction log the same way: `begin_after_id` is the `event_id` of the last
 * item of the previous page, and the next page starts with the item before it).
 *
 * The node keeps no separate transaction log: the history is read off the ledger's transactions
 * (history-items.ts), walking back from the ledger end or from the transaction of
 * `begin_after_id`. The cost is the transactions walked, so a page for a party with little
 * activity on a busy ledger reads far back; a per-party index would bound it.
 */
import { transactionsNewestFirst } from "../support/ledger-scan.js";
import { historyItemsOf, parseEventId, type HistoryItem } from "../support/history-items.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export const MAX_PAGE_SIZE = 1000;

export interface ListTransactionsInput {
  readonly party: string;
  readonly beginAfterId?: string;
  readonly pageSize: bigint;
}

export async function listTransactions(deps: WalletDeps, input: ListTransactionsInput): Promise<HistoryItem[]> {
  if (input.pageSize < 1n || input.pageSize > BigInt(MAX_PAGE_SIZE)) {
    throw walletErrors.badRequest(`page_size: must be between 1 and ${MAX_PAGE_SIZE}, got ${input.pageSize}`);
  }
  const store = deps.store;
  const pageSize = Number(input.pageSize);
  let start = await store.ledgerEnd();
  let beforeNode = Number.POSITIVE_INFINITY;
  if (input.beginAfterId !== undefined) {
    const at = parseEventId(input.beginAfterId);
    if (!at) throw walletErrors.badRequest(`begin_after_id: ${JSON.stringify(input.beginAfterId)} is not an event id (#<update id>:<node id>)`);
    const tx = await store.transactionById(at.updateId);
    if (!tx) throw walletErrors.notFound(`begin_after_id: no transaction ${at.updateId} on this ledger`);
    start = tx.offset;
    beforeNode = at.nodeId;
  }
  const page: HistoryItem[] = [];
  for await (const tx of transactionsNewestFirst(store, start)) {
    const items = historyItemsOf(tx, input.party).reverse();
    for (const item of items) {
      if (tx.offset === start && item.nodeId >= beforeNode) continue;
      page.push(item);
      if (page.length === pageSize) return page;
    }
  }
  return page;
}
