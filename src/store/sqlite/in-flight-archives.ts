/**
 * The contracts that batches with the writer thread archive, with the (party, template) sets each
 * was in. The file shows a batch as soon as the writer has committed it, before its sync ends and
 * it is answered; reads of the current state are bounded by the durable end (what a crash keeps),
 * so they leave out the contracts such a batch created and add back those it archived, found here
 * without reading anything when a read's parties and templates meet none of them.
 */
import type { ContractQuery } from "../../ledger/store-port.js";
import type { PartyTemplate } from "./party-template-cache.js";

interface Entry {
  readonly sets: readonly PartyTemplate[];
  /** How many batches in flight archive it (a lost race is a second). */
  count: number;
}

export class InFlightArchives {
  /** By template, then contract id: a read names its templates, and most meet none of these. */
  private readonly byTemplate = new Map<string, Map<string, Entry>>();

  add(contractId: string, sets: readonly PartyTemplate[]): void {
    const template = sets[0][1];
    let ids = this.byTemplate.get(template);
    if (!ids) this.byTemplate.set(template, (ids = new Map()));
    const entry = ids.get(contractId);
    if (entry) entry.count++;
    else ids.set(contractId, { sets, count: 1 });
  }

  /** The batch that archived these was answered (written or not). */
  remove(archived: readonly { readonly contractId: string; readonly template: string }[]): void {
    for (const { contractId, template } of archived) {
      const ids = this.byTemplate.get(template);
      const entry = ids?.get(contractId);
      if (!ids || !entry || --entry.count > 0) continue;
      ids.delete(contractId);
      if (ids.size === 0) this.byTemplate.delete(template);
    }
  }

  /** The ids whose sets a read of the current state covers (undefined parties or templates: any). */
  matching(query: Pick<ContractQuery, "parties" | "templateIds">): string[] {
    const found: string[] = [];
    if (this.byTemplate.size === 0) return found;
    const parties = query.parties;
    const collect = (ids: Map<string, Entry>) =>
      ids.forEach((entry, cid) => {
        if (!parties || entry.sets.some((set) => parties.includes(set[0]))) found.push(cid);
      });
    if (query.templateIds) {
      for (const template of query.templateIds) {
        const ids = this.byTemplate.get(template);
        if (ids) collect(ids);
      }
    } else {
      for (const ids of this.byTemplate.values()) collect(ids);
    }
    return found;
  }
}
