/**
 * Reading the active contracts a query asks for, in creation order. A party's contracts come
 * from `active_stakeholders`, whose rows go with their contracts, so a read costs what the party
 * holds now, not what it ever held; a party's contracts of one template are one range of its key.
 * The ACS at a past offset adds the contracts archived since then, which is few for the recent
 * offsets readers ask about.
 */
import type { ContractRecord } from "../../ledger/records.js";
import type { ContractPageQuery, ContractQuery, CreationPosition } from "../../ledger/store-port.js";
import type { LedgerStatements } from "./ledger-statements.js";
import type { PartyTemplateCache } from "./party-template-cache.js";
import { allRecords, oneRecordSized } from "./rows.js";
import { extend, updated } from "../../util/extend.js";

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
      if (hasStakeholderIn(r, wanted)) {
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

/** Whether one of the contract's stakeholders is among the parties. */
function hasStakeholderIn(c: Pick<ContractRecord, "signatories" | "observers">, parties: ReadonlySet<string>): boolean {
  return c.signatories.some((p) => parties.has(p)) || c.observers.some((p) => parties.has(p));
}

/** Whether a read of the current state asks for this contract (undefined parties or templates: any). */
export function queryAsksFor(query: Pick<ContractQuery, "parties" | "templateIds">, c: ContractRecord): boolean {
  if (query.templateIds && !query.templateIds.includes(c.templateId)) return false;
  return !query.parties || hasStakeholderIn(c, new Set(query.parties));
}

/** Creation order: a contract's transaction's offset, then its node id. */
export function compareCreation(a: ContractRecord, b: ContractRecord): number {
  if (a.createdOffset !== b.createdOffset) return a.createdOffset < b.createdOffset ? -1 : 1;
  return a.nodeId - b.nodeId;
}

interface PositionRow {
  readonly contract_id: string;
  readonly created_offset: number | bigint;
  readonly node_id: number | bigint;
}

interface Candidate {
  readonly contractId: string;
  readonly position: CreationPosition;
  /** Already decoded (an archived contract, read to see its stakeholders), with its text's length. */
  readonly read?: { readonly record: ContractRecord; readonly bytes: number };
}

const FIRST: CreationPosition = { offset: -1n, nodeId: -1 };

function comparePositions(a: CreationPosition, b: CreationPosition): number {
  if (a.offset !== b.offset) return a.offset < b.offset ? -1 : 1;
  return a.nodeId - b.nodeId;
}

const candidateOf = (r: PositionRow): Candidate => ({
  contractId: r.contract_id,
  position: { offset: BigInt(r.created_offset), nodeId: Number(r.node_id) },
});

/**
 * `activeContractsPage`: the first `limit` contracts of the snapshot at `activeAtOffset` after
 * `after`. Positions are found first (a party's from its index rows, everyone's from the rows'
 * heads), the page's records are then read by id; a page costs its own records and an index
 * walk, not the snapshot before it. With `maxBytes` the page ends after the record whose text
 * brings it there.
 */
export function readActivePage(s: LedgerStatements, query: ContractPageQuery): ContractRecord[] {
  const at = query.activeAtOffset;
  if (at <= 0n) return [];
  const after = query.after ?? FIRST;
  const bound = { at, co: after.offset, nid: after.nodeId, limit: query.limit };
  const candidates = query.parties ? pageForParties(s, [...new Set(query.parties)], bound, query.maxBytes) : pageForAll(s, bound, query.maxBytes);
  const page: ContractRecord[] = [];
  let bytes = 0;
  for (const c of candidates) {
    const read = c.read ?? oneRecordSized<ContractRecord>(s.contractHistory, c.contractId);
    if (!read) continue;
    page.push(read.record);
    bytes += read.bytes;
    if (query.maxBytes !== undefined && bytes >= query.maxBytes) break;
  }
  return page;
}

interface Bound {
  readonly at: bigint;
  readonly co: bigint;
  readonly nid: number;
  readonly limit: number;
}

/**
 * The parties' active contracts (one index range each), then those archived after the snapshot,
 * which have no stakeholder rows left (see withArchivedSince).
 */
function pageForParties(s: LedgerStatements, parties: readonly string[], bound: Bound, maxBytes: number | undefined): Candidate[] {
  const rows = parties.flatMap((party) => s.pageByParty.all(extend(bound, { party })) as PositionRow[]);
  const wanted = new Set(parties);
  return withArchivedSince(s, rows.map(candidateOf), (c) => hasStakeholderIn(c, wanted), bound, maxBytes);
}

/**
 * Everyone's: the templates' active contracts from the position on, each template's range read
 * only as far as the merge takes it (a page reads about a page of positions, however many
 * templates there are), then those archived after the snapshot. When most of the ledger was
 * archived after the snapshot (an old offset), reading those by id and sorting them on every page
 * costs more than one pass over the table, and the page is read that way instead.
 */
function pageForAll(s: LedgerStatements, bound: Bound, maxBytes: number | undefined): Candidate[] {
  const size = Number((s.contractsBound.get() as { n: number | bigint | null }).n ?? 0);
  const cap = Math.floor(size / ARCHIVED_SHARE_FOR_SCAN) + 1;
  if (Number((s.archivedSinceAtLeast.get({ at: bound.at, cap }) as { n: number | bigint }).n) >= cap) {
    return (s.pageAllByScan.all(bound) as PositionRow[]).map(candidateOf);
  }
  const templates = (s.activeTemplateIds.all() as { id: string }[]).map((r) => r.id);
  const { at, co, nid } = bound;
  const ranges = templates.map((template, i) => s.templateRange(i).iterate({ template, at, co, nid }) as IterableIterator<PositionRow>);
  let active: Candidate[];
  try {
    active = merged(ranges, bound.limit);
  } finally {
    for (const r of ranges) r.return?.();
  }
  return withArchivedSince(s, active, () => true, bound, maxBytes);
}

/**
 * One archived contract read by id (and its part of a sort) costs about as much as this many rows
 * of a pass over the table: measured 156 ms for the ~140,000 archived after a snapshot against 25
 * ms for a pass over 200,000 rows.
 */
const ARCHIVED_SHARE_FOR_SCAN = 8;

/** The first `limit` rows of ranges that are each in creation order, in creation order. */
function merged(ranges: readonly IterableIterator<PositionRow>[], limit: number): Candidate[] {
  const headOf = (r: IterableIterator<PositionRow>) => {
    const next = r.next();
    return next.done ? undefined : candidateOf(next.value);
  };
  const heads = ranges.map(headOf);
  const out: Candidate[] = [];
  while (out.length < limit) {
    let min = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      if (h && (min < 0 || comparePositions(h.position, heads[min]!.position) < 0)) min = i;
    }
    if (min < 0) break;
    out.push(heads[min]!);
    heads[min] = headOf(ranges[min]!);
  }
  return out;
}

/**
 * The page's first `limit` of the `active` contracts and of the contracts archived after the snapshot
 * that `matches` takes: their positions sorted once, then each decoded (to see its stakeholders),
 * only until it can no longer be in the page. Each contract once, in order. (One statement per
 * call: chunks of it each sorted every contract archived since the snapshot again, and 80,000 of
 * them held the loop 4.9 s for a party with three contracts, a review found.)
 */
function withArchivedSince(s: LedgerStatements, active: readonly Candidate[], matches: (c: ContractRecord) => boolean, bound: Bound, maxBytes: number | undefined): Candidate[] {
  const byId = new Map<string, Candidate>();
  for (const c of active) byId.set(c.contractId, c);
  const first = inOrder(byId, bound.limit);
  // A row past the page's last active contract cannot be in the page once the page is full.
  const last = first.length === bound.limit ? first[first.length - 1]!.position : undefined;
  let matched = 0;
  // Archived matches as big as the page's byte bound end it by themselves: none after them is in it.
  let matchedBytes = 0;
  for (const r of s.pageArchivedSince.iterate({ at: bound.at, co: bound.co, nid: bound.nid }) as IterableIterator<PositionRow>) {
    const c = candidateOf(r);
    if ((last && comparePositions(c.position, last) > 0) || matched === bound.limit) break;
    const read = oneRecordSized<ContractRecord>(s.contractHistory, c.contractId);
    if (!read || !matches(read.record)) continue;
    // Archived since the index was read, it is there already: a match only once.
    if (!byId.has(c.contractId)) matched++;
    byId.set(c.contractId, updated(c, { read }));
    matchedBytes += read.bytes;
    if (maxBytes !== undefined && matchedBytes >= maxBytes) break;
  }
  return inOrder(byId, bound.limit);
}

function inOrder(byId: Map<string, Candidate>, limit: number): Candidate[] {
  return [...byId.values()].sort((a, b) => comparePositions(a.position, b.position)).slice(0, limit);
}
