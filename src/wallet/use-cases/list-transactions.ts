/**
 * `POST /v0/wallet/transactions`: the party's wallet history, newest first, a page at a time
 * (Splice pages its transaction log the same way: `begin_after_id` is the `event_id` of the last
 * item of the previous page, and the next page starts with the item before it).
 *
 * The history is read off the ledger's transactions (history-items.ts): those the party witnesses,
 * by the offsets the history index keeps (history-index.ts), newest first from the ledger end or
 * from the transaction of `begin_after_id`. A page reads the party's own transactions only.
 */
import { historyItemsOf, parseEventId, type HistoryItem } from "../support/history-items.js";
import { fromDamlJson } from "../../ledger/daml-type.js";
import type { Numeric } from "../../ledger/numeric.js";
import type { TransactionRecord } from "../../ledger/records.js";
import { qualifiedId } from "../../ledger/template.js";
import { OpenMiningRound, type OpenMiningRoundPayload } from "../../templates/splice/round.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { updated } from "../../util/extend.js";

export const MAX_PAGE_SIZE = 1000;

export interface ListTransactionsInput {
  readonly party: string;
  readonly beginAfterId?: string;
  readonly pageSize: bigint;
  /** Adds each item's open-round amulet price (an extension of Splice's API, for the web UI). */
  readonly withPrices?: boolean;
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
    // A transaction outside the party's history is as unknown as one that does not exist: a
    // cursor must not tell anyone whether, or where, another party's transaction is.
    if (!tx || historyItemsOf(tx, input.party).length === 0) throw walletErrors.notFound(`begin_after_id: no transaction ${at.updateId} in the wallet's history`);
    start = tx.offset;
    beforeNode = at.nodeId;
  }
  const page: HistoryItem[] = [];
  const prices = new RoundPrices(store);
  const offsets = await deps.history.of(input.party);
  for (let i = lastAtOrBefore(offsets, Number(start)); i >= 0; i--) {
    const tx = await store.transactionByOffset(BigInt(offsets[i]));
    if (!tx) continue;
    const items = historyItemsOf(tx, input.party).reverse();
    if (items.length === 0) continue;
    const amuletPrice = input.withPrices ? await prices.of(tx) : undefined;
    for (const item of items) {
      if (tx.offset === start && item.nodeId >= beforeNode) continue;
      page.push(amuletPrice ? updated(item, { amuletPrice }) : item);
      if (page.length === pageSize) return page;
    }
  }
  return page;
}

/** The index of the last of the ascending `offsets` at or before `offset`, -1 if none is. */
function lastAtOrBefore(offsets: readonly number[], offset: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Argument fields that name the open round a CC transaction used (transfer contexts, taps). */
const ROUND_FIELDS = new Set(["openMiningRound", "openRound"]);

/**
 * The amulet price of the open round a transaction used: the first round an exercise argument
 * names, read from the store whether still active or archived. Cached per round for one page.
 */
class RoundPrices {
  private readonly byRound = new Map<string, Numeric | undefined>();

  constructor(private readonly store: WalletDeps["store"]) {}

  async of(tx: TransactionRecord): Promise<Numeric | undefined> {
    const cid = roundNamedIn(tx);
    if (!cid) return undefined;
    if (!this.byRound.has(cid)) {
      const history = await this.store.contractHistory(cid);
      const ok = history?.contract.templateId === qualifiedId(OpenMiningRound.id);
      this.byRound.set(cid, ok ? (fromDamlJson(OpenMiningRound.payload, history!.contract.payload) as OpenMiningRoundPayload).amuletPrice : undefined);
    }
    return this.byRound.get(cid);
  }
}

function roundNamedIn(tx: TransactionRecord): string | undefined {
  for (const node of tx.nodes) {
    if (node.kind !== "exercise") continue;
    const found = findField(node.argument, 0);
    if (found) return found;
  }
  return undefined;
}

/** A round field's contract id inside a Daml-LF JSON value (bounded depth: arguments are shallow). */
function findField(v: unknown, depth: number): string | undefined {
  if (depth > 6 || typeof v !== "object" || v === null) return undefined;
  for (const [k, x] of Object.entries(v)) {
    if (ROUND_FIELDS.has(k) && typeof x === "string") return x;
    const inner = findField(x, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}
