/**
 * Fan-out of transactions to the open-ended update streams, at no cost per commit for a stream
 * the commit does not concern (stream-watch.ts). Streams are indexed by the parties their filter
 * names; a transaction marks the streams of the parties that witness any of its nodes (a superset
 * of what each will show: the stream still projects through its exact format), and every stream
 * whose filter is for any party. Offsets known only from the store mark every stream.
 */
import type { CompletionRecord, TransactionRecord } from "./records.js";
import { WatchHub, type StreamWatch, type Watch } from "./stream-watch.js";

/** The parties a stream's filter names, or "any" for a party-wildcard filter. */
export type UpdateWatchKey = ReadonlySet<string> | "any";

export class UpdateHub extends WatchHub<UpdateWatchKey> {
  private readonly byParty = new Map<string, Set<Watch<UpdateWatchKey>>>();
  private readonly anyParty = new Set<Watch<UpdateWatchKey>>();

  /** Follows the transactions `parties` witness (or every one); starts marked (it must catch up). */
  watch(parties: UpdateWatchKey): StreamWatch {
    const w = this.addWatch(parties);
    if (parties === "any") this.anyParty.add(w);
    else for (const p of parties) this.indexed(p).add(w);
    return w;
  }

  private indexed(party: string): Set<Watch<UpdateWatchKey>> {
    let set = this.byParty.get(party);
    if (!set) this.byParty.set(party, (set = new Set()));
    return set;
  }

  protected removed(w: Watch<UpdateWatchKey>): void {
    if (w.key === "any") return void this.anyParty.delete(w);
    for (const p of w.key) {
      const set = this.byParty.get(p);
      set?.delete(w);
      if (set?.size === 0) this.byParty.delete(p);
    }
  }

  protected onTransaction(tx: TransactionRecord): void {
    for (const w of this.anyParty) w.mark();
    if (this.byParty.size === 0) return;
    for (const node of tx.nodes) {
      for (const p of node.witnesses) this.byParty.get(p)?.forEach((w) => w.mark());
      if (node.kind === "exercise") for (const p of node.stakeholders) this.byParty.get(p)?.forEach((w) => w.mark());
    }
  }

  /** A rejection has no transaction: nothing to mark. The feed always brings a transaction it read from the store. */
  protected onOffset(_offset: bigint, _completion: CompletionRecord | undefined): void {}
}
