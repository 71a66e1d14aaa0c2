/**
 * A party's active contracts of one template, as last read, kept until a write touches that
 * party and template. A wallet request reads the same few small sets again and again (the
 * receiver's preapproval, the provider's featured app right, a sender's empty coupon kinds);
 * this process is the file's only writer, so each write says exactly which sets it changes.
 * Only small sets are kept: large ones (a DSO's rounds, a busy party's holdings) change on
 * nearly every write anyway.
 *
 * A batch with the writer thread may be in the file before its answer reaches the loop: the sets
 * it changes are dropped when it is handed over and not kept again until it is answered, so a
 * read of several sets never mixes a kept set from before the batch with one read after it.
 */
import type { ContractRecord } from "../../ledger/records.js";
import type { CommitRequest } from "../../ledger/store-port.js";

const MAX_ROWS = 16;
const MAX_ENTRIES = 50_000;

/**
 * Values by party, then template: nested maps rather than one map keyed by the two joined, since
 * a transfer looks up, holds and releases a dozen sets, and building and hashing a fresh ~180
 * character key for each was a measurable part of the loop's time per send.
 */
class ByPartyTemplate<V> {
  private readonly byParty = new Map<string, Map<string, V>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(party: string, template: string): V | undefined {
    return this.byParty.get(party)?.get(template);
  }

  has(party: string, template: string): boolean {
    return this.byParty.get(party)?.has(template) ?? false;
  }

  set(party: string, template: string, value: V): void {
    let templates = this.byParty.get(party);
    if (!templates) this.byParty.set(party, (templates = new Map()));
    const before = templates.size;
    templates.set(template, value);
    this.count += templates.size - before;
  }

  delete(party: string, template: string): void {
    const templates = this.byParty.get(party);
    if (!templates?.delete(template)) return;
    this.count--;
    if (templates.size === 0) this.byParty.delete(party);
  }

  clear(): void {
    this.byParty.clear();
    this.count = 0;
  }
}

export class PartyTemplateCache {
  private readonly entries = new ByPartyTemplate<readonly ContractRecord[]>();
  /** Sets that batches in flight change, with how many of those batches. */
  private readonly held = new ByPartyTemplate<number>();

  get(party: string, template: string): readonly ContractRecord[] | undefined {
    return this.entries.get(party, template);
  }

  put(party: string, template: string, rows: readonly ContractRecord[]): void {
    if (rows.length > MAX_ROWS || this.held.has(party, template)) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(party, template, rows);
  }

  /** Drops every kept set (a write changed sets nobody could name), holding what is held. */
  forgetAll(): void {
    this.entries.clear();
  }

  /** A batch that changes these sets is handed over: they are dropped and not kept until `release`. */
  hold(sets: Iterable<PartyTemplate>): void {
    for (const [party, template] of sets) {
      this.entries.delete(party, template);
      this.held.set(party, template, (this.held.get(party, template) ?? 0) + 1);
    }
  }

  /**
   * The batch that held these sets was answered (written or not). Nothing was kept of them
   * meanwhile (`put` refuses a held set), so there is nothing to drop.
   */
  release(sets: Iterable<PartyTemplate>): void {
    for (const [party, template] of sets) {
      const n = (this.held.get(party, template) ?? 1) - 1;
      if (n > 0) this.held.set(party, template, n);
      else this.held.delete(party, template);
    }
  }
}

/** One (party, template) set of the cache. */
export type PartyTemplate = readonly [party: string, template: string];

/**
 * The sets a request's write changes: each created contract's stakeholders with its template, and
 * each archived one's (`archived`: from the contract's own record or the file, never from the
 * request, whose nodes a caller builds); undefined if an archived contract's are unknown.
 */
export function setsChangedBy(request: CommitRequest, archived: (cid: string) => readonly PartyTemplate[] | undefined): PartyTemplate[] | undefined {
  if (request.kind !== "transaction") return [];
  const sets: PartyTemplate[] = [];
  for (const c of request.creates) sets.push(...setsOf(c));
  let known = true;
  // Every archive is asked about, even after an unknown one: the caller learns of each.
  for (const cid of request.archives) {
    const of = archived(cid);
    if (of) sets.push(...of);
    else known = false;
  }
  return known ? sets : undefined;
}

/** The sets a contract is in: each of its stakeholders with its template. */
export const setsOf = (c: Pick<ContractRecord, "signatories" | "observers" | "templateId">): PartyTemplate[] => [...c.signatories, ...c.observers].map((party) => [party, c.templateId]);
