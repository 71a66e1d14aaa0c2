/**
 * Reading the active contracts a query asks for, in creation order. A party's contracts come
 * from `active_stakeholders`, whose rows go with their contracts, so a read costs what the party
 * holds now, not what it ever held; a party's contracts of one template are one range of its key.
 * The ACS at a past offset adds the contracts archived since then, which is few for the recent
 * offsets readers ask about.
 */
import type { ContractRecord } from "../../ledger/records.js";
import type { ContractQuery } from "../../ledger/store-port.js";
import type { LedgerStatements } from "./ledger-statements.js";
import type { PartyTemplateCache } from "./party-template-cache.js";
import { allRecords } from "./rows.js";

export function readActiveContracts(s: LedgerStatements, cache: PartyTemplateCache, query: ContractQuery): ContractRecord[] {
  const at = query.activeAtOffset;
  const templates = query.templateIds && [...new Set(query.templateIds)];
  if (query.parties) return forParties(s, cache, query.parties, templates, at);
  if (templates?.length === 1) {
    const template = templates[0];
    return at === undefined ? allRecords(s.activeByTemplate, template) : allRecords(s.activeByTemplateAt, { template, at });
  }
  const rows: ContractRecord[] = at === undefined ? allRecords(s.activeAll) : allRecords(s.activeAllAt, { at });
  return templates ? rows.filter((r) => templates.includes(r.templateId)) : rows;
}

function forParties(
  s: LedgerStatements,
  cache: PartyTemplateCache,
  parties: readonly string[],
  templates: readonly string[] | undefined,
  at: bigint | undefined,
): ContractRecord[] {
  const byId = new Map<string, ContractRecord>();
  // How many reads gave rows: one read's rows are already in order.
  let sources = 0;
  for (const party of new Set(parties)) {
    const reads = templates ? templates.map((t) => ofTemplate(s, cache, party, t, at)) : [allRecords<ContractRecord>(s.activeByParty, party)];
    for (const rows of reads) {
      if (rows.length > 0) sources++;
      for (const r of rows) if (at === undefined || r.createdOffset <= at) byId.set(r.contractId, r);
    }
  }
  if (at !== undefined) {
    const wanted = new Set(parties);
    for (const r of allRecords<ContractRecord>(s.archivedSince, { at })) {
      if (templates && !templates.includes(r.templateId)) continue;
      if (r.signatories.some((p) => wanted.has(p)) || r.observers.some((p) => wanted.has(p))) {
        byId.set(r.contractId, r);
        sources = 2;
      }
    }
  }
  const rows = [...byId.values()];
  return sources > 1 ? rows.sort(compareCreation) : rows;
}

/** A party's active contracts of one template; the current ones through the cache. */
function ofTemplate(s: LedgerStatements, cache: PartyTemplateCache, party: string, template: string, at: bigint | undefined): readonly ContractRecord[] {
  if (at !== undefined) return allRecords(s.activeByPartyAndTemplate, party, template);
  const cached = cache.get(party, template);
  if (cached) return cached;
  const rows = allRecords<ContractRecord>(s.activeByPartyAndTemplate, party, template);
  cache.put(party, template, rows);
  return rows;
}

function compareCreation(a: ContractRecord, b: ContractRecord): number {
  if (a.createdOffset !== b.createdOffset) return a.createdOffset < b.createdOffset ? -1 : 1;
  return a.nodeId - b.nodeId;
}
