/**
 * The offsets of the transactions each wallet party witnesses, in memory and kept current from
 * the ledger's transaction feed, so that a page of a party's history reads that party's
 * transactions and no others. Without it a page walked the ledger back from its end until it had
 * found its items: for a party with little history on a busy ledger, every page read and decoded
 * the whole ledger (0.6 s on a hostile review's 0.4 GB store; four pages at once slowed everyone
 * else to 3–4 s). Splice keeps a per-party transaction log for the same reason.
 *
 * A party is loaded on its first history page: one scan of the ledger up to the feed's position,
 * plus what the feed delivers meanwhile (feed-snapshot.ts); from then on each transaction adds its
 * offset to the loaded parties among its witnesses. At most `maxOffsets` offsets are held over all
 * parties; past that the least recently read parties are dropped whole and loaded again on use.
 */
import type { TransactionRecord } from "../../ledger/records.js";
import type { LedgerStore } from "../../ledger/store-port.js";
import type { TransactionFeed } from "../../ledger/transaction-feed.js";
import { loadAtFeed } from "./feed-snapshot.js";

export const DEFAULT_MAX_OFFSETS = 4_000_000;
const SCAN_PAGE = 500;

export class HistoryIndex {
  /** Loaded parties' offsets (ascending), least recently read first. */
  private readonly parties = new Map<string, number[]>();
  private readonly loading = new Map<string, Promise<number[]>>();
  private held = 0;

  constructor(
    private readonly feed: TransactionFeed,
    private readonly store: LedgerStore,
    private readonly maxOffsets = DEFAULT_MAX_OFFSETS,
  ) {
    feed.subscribe((tx) => {
      if (this.parties.size > 0) this.apply(tx);
    });
  }

  /** The offsets, ascending, of every transaction with a node `party` witnesses, up to the feed's position now. */
  async of(party: string): Promise<readonly number[]> {
    await this.feed.caughtUp();
    const offsets = this.parties.get(party) ?? (await this.load(party));
    if (this.parties.get(party) === offsets) {
      this.parties.delete(party);
      this.parties.set(party, offsets);
    }
    return offsets;
  }

  private load(party: string): Promise<number[]> {
    let p = this.loading.get(party);
    if (!p) {
      p = loadAtFeed(
        this.feed,
        (at) => witnessedUpTo(this.store, party, at),
        (offsets, since) => {
          for (const tx of since) if (witnesses(tx, party)) offsets.push(Number(tx.offset));
          this.parties.set(party, offsets);
          this.held += offsets.length;
          this.evictBeyondBound(offsets);
          return offsets;
        },
      ).finally(() => this.loading.delete(party));
      this.loading.set(party, p);
    }
    return p;
  }

  private apply(tx: TransactionRecord): void {
    const added = new Set<string>();
    for (const node of tx.nodes) {
      for (const party of node.witnesses) {
        if (added.has(party)) continue;
        const offsets = this.parties.get(party);
        if (!offsets) continue;
        added.add(party);
        offsets.push(Number(tx.offset));
        this.held++;
      }
    }
  }

  private evictBeyondBound(keep: number[]): void {
    for (const [party, offsets] of this.parties) {
      if (this.held <= this.maxOffsets) return;
      if (offsets === keep) continue;
      this.parties.delete(party);
      this.held -= offsets.length;
    }
  }
}

function witnesses(tx: TransactionRecord, party: string): boolean {
  return tx.nodes.some((n) => n.witnesses.includes(party));
}

/** The offsets up to `at` of transactions with a node `party` witnesses: one pass over the ledger. */
async function witnessedUpTo(store: LedgerStore, party: string, at: bigint): Promise<number[]> {
  const offsets: number[] = [];
  let from = 0n;
  while (from < at) {
    const page = await store.transactions(from, at, SCAN_PAGE);
    for (const tx of page) if (witnesses(tx, party)) offsets.push(Number(tx.offset));
    if (page.length < SCAN_PAGE) break;
    from = page[page.length - 1].offset;
  }
  return offsets;
}
