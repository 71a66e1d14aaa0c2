/**
 * Building blocks of the wallet's in-memory indexes over the ledger's transaction feed: a
 * snapshot that is exact under concurrent commits (reads wait with `feed.caughtUp()`).
 */
import type { CreateNodeRecord, ContractRecord, TransactionRecord } from "../../ledger/records.js";
import type { LedgerStore } from "../../ledger/store-port.js";
import type { TransactionFeed } from "../../ledger/transaction-feed.js";

/**
 * Reads a snapshot at the feed's position, collects the transactions the feed delivers while it
 * is being read (all past the snapshot's offset), and hands both to `install` synchronously —
 * before the feed can deliver anything else. Snapshot + collected = the state at the feed's
 * position; `install` must make the caller's own listener take over from the next delivery.
 */
export async function loadAtFeed<T, R>(
  feed: TransactionFeed,
  read: (atOffset: bigint) => Promise<T>,
  install: (snapshot: T, since: readonly TransactionRecord[]) => R,
): Promise<R> {
  const since: TransactionRecord[] = [];
  const at = feed.position;
  const unsubscribe = feed.subscribe((tx) => {
    if (tx.offset > at) since.push(tx);
  });
  try {
    return install(await read(at), since);
  } finally {
    unsubscribe();
  }
}

/** The active-contract record of a create node, as the store keeps it. */
export function recordOfCreate(tx: TransactionRecord, node: CreateNodeRecord): ContractRecord {
  return {
    contractId: node.contractId,
    templateId: node.templateId,
    packageName: node.packageName,
    payload: node.payload,
    signatories: node.signatories,
    observers: node.observers,
    ...(node.key !== undefined ? { key: node.key } : {}),
    createdAt: tx.effectiveAt,
    createdOffset: tx.offset,
    createUpdateId: tx.updateId,
    nodeId: node.nodeId,
    ...(node.salt !== undefined ? { salt: node.salt } : {}),
  };
}

const REPLAY_PAGE = 500;

/** Applies the stored log up to `upTo`, a page at a time, letting the node serve in between. */
export async function replayLog(store: LedgerStore, upTo: bigint, apply: (tx: TransactionRecord) => void): Promise<void> {
  for (let from = 0n; from < upTo; ) {
    const page = await store.transactions(from, upTo, REPLAY_PAGE);
    if (page.length === 0) break;
    for (const tx of page) apply(tx);
    from = page[page.length - 1].offset;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
