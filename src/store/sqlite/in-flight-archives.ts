/**
 * The contracts that batches with the writer thread archive, with the (party, template) sets each
 * was in. The file shows a batch as soon as the writer has committed it, before its sync ends and
 * it is answered; reads of the current state are bounded by the durable end (what a crash keeps),
 * so they leave out the contracts such a batch created and add back those it archived, found here
 * without reading anything when a read's parties and templates meet none of them.
 */
import type { ContractQuery } from "../../ledger/store-port.js";
import type { PartyTemplate } from "./party-template-cache.js";

/** An archive a batch in flight makes: its contract, and the contract's template if it was known. */
export interface InFlightArchive {
  readonly contractId: string;
  readonly template: string | undefined;
}

interface Entry {
  readonly sets: readonly PartyTemplate[];
  /** How many batches in flight archive it (a lost race is a second). */
  count: number;
}

export class InFlightArchives {
  /** By template, then contract id: a read names its templates, and most meet none of these. */
  private readonly byTemplate = new Map<string, Map<string, Entry>>();
  /**
   * Contracts neither the hot cache nor the file knew at hand-over (a batch then still with the
   * writer created them, or the id is made up), by how many batches archive them: every read
   * looks at these, by their records. Rare: a submitter learns of a contract from an answer.
   */
  private readonly unknown = new Map<string, number>();

  /** A batch handed over archives this contract, in these sets (undefined: not known). */
  add(contractId: string, sets: readonly PartyTemplate[] | undefined): InFlightArchive {
    if (sets === undefined || sets.length === 0) {
      this.unknown.set(contractId, (this.unknown.get(contractId) ?? 0) + 1);
      return { contractId, template: undefined };
    }
    const template = sets[0][1];
    let ids = this.byTemplate.get(template);
    if (!ids) this.byTemplate.set(template, (ids = new Map()));
    const entry = ids.get(contractId);
    if (entry) entry.count++;
    else ids.set(contractId, { sets, count: 1 });
    return { contractId, template };
  }

  /** The batch that made these archives was answered (written or not). */
  remove(archives: readonly InFlightArchive[]): void {
    for (const { contractId, template } of archives) {
      if (template === undefined) {
        const n = (this.unknown.get(contractId) ?? 1) - 1;
        if (n > 0) this.unknown.set(contractId, n);
        else this.unknown.delete(contractId);
        continue;
      }
      const ids = this.byTemplate.get(template);
      const entry = ids?.get(contractId);
      if (!ids || !entry || --entry.count > 0) continue;
      ids.delete(contractId);
      if (ids.size === 0) this.byTemplate.delete(template);
    }
  }

  /**
   * The contracts a read of the current state may have to add back (undefined parties or
   * templates: any): the known ones whose sets it covers, and every unknown one; each once.
   * Callers check an unknown one's record against the read.
   */
  matching(query: Pick<ContractQuery, "parties" | "templateIds">): string[] {
    const found: string[] = [];
    if (this.byTemplate.size === 0 && this.unknown.size === 0) return found;
    const parties = query.parties;
    const collect = (ids: Map<string, Entry>) =>
      ids.forEach((entry, cid) => {
        if (!parties || entry.sets.some((set) => parties.includes(set[0]))) found.push(cid);
      });
    if (query.templateIds) {
      for (const template of new Set(query.templateIds)) {
        const ids = this.byTemplate.get(template);
        if (ids) collect(ids);
      }
    } else {
      for (const ids of this.byTemplate.values()) collect(ids);
    }
    for (const cid of this.unknown.keys()) found.push(cid);
    return found;
  }
}
