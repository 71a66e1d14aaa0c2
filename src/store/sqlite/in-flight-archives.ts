/**
 * The contracts that batches with the writer thread archive, with the (party, template) sets each
 * was in. The file shows a batch as soon as the writer has committed it, before its sync ends and
 * it is answered; reads of the current state are bounded by the durable end (what a crash keeps),
 * so they leave out the contracts such a batch created and add back those it archived, found here
 * without reading anything when a read's parties and templates meet none of them.
 */
import type { ContractQuery } from "../../ledger/store-port.js";
import type { PartyTemplate } from "./party-template-cache.js";

export class InFlightArchives {
  /** By contract id: its sets, and how many batches in flight archive it (a lost race is a second). */
  private readonly byId = new Map<string, { readonly sets: readonly PartyTemplate[]; count: number }>();

  get size(): number {
    return this.byId.size;
  }

  add(contractId: string, sets: readonly PartyTemplate[]): void {
    const entry = this.byId.get(contractId);
    if (entry) entry.count++;
    else this.byId.set(contractId, { sets, count: 1 });
  }

  /** The batch that archived these was answered (written or not). */
  remove(contractIds: readonly string[]): void {
    for (const cid of contractIds) {
      const entry = this.byId.get(cid);
      if (!entry) continue;
      if (--entry.count === 0) this.byId.delete(cid);
    }
  }

  /** The ids whose sets a query of the current state reads (undefined parties or templates: any). */
  *matching(query: Pick<ContractQuery, "parties" | "templateIds">): Iterable<string> {
    for (const [cid, { sets }] of this.byId) {
      if (sets.some(([party, template]) => (!query.parties || query.parties.includes(party)) && (!query.templateIds || query.templateIds.includes(template)))) {
        yield cid;
      }
    }
  }
}
