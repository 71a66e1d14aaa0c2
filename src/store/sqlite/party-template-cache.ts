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

export class PartyTemplateCache {
  private readonly entries = new Map<string, readonly ContractRecord[]>();
  /** Sets that batches in flight change, with how many of those batches. */
  private readonly held = new Map<string, number>();

  get(party: string, template: string): readonly ContractRecord[] | undefined {
    return this.entries.get(key(party, template));
  }

  put(party: string, template: string, rows: readonly ContractRecord[]): void {
    if (rows.length > MAX_ROWS || this.held.has(key(party, template))) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key(party, template), rows);
  }

  /** A contract of `template` with stakeholder `party` was created or archived. */
  changed(party: string, template: string): void {
    this.entries.delete(key(party, template));
  }

  /** A batch that changes these sets is handed over: they are dropped and not kept until `release`. */
  hold(sets: Iterable<readonly [string, string]>): void {
    for (const [party, template] of sets) {
      const k = key(party, template);
      this.entries.delete(k);
      this.held.set(k, (this.held.get(k) ?? 0) + 1);
    }
  }

  /** The batch that held these sets was answered (written or not). */
  release(sets: Iterable<readonly [string, string]>): void {
    for (const [party, template] of sets) {
      const k = key(party, template);
      this.entries.delete(k);
      const n = (this.held.get(k) ?? 1) - 1;
      if (n > 0) this.held.set(k, n);
      else this.held.delete(k);
    }
  }
}

function key(party: string, template: string): string {
  return `${party}\u0000${template}`;
}

/**
 * The sets a request's write changes: each created contract's stakeholders with its template, and
 * each archived one's, from its record (`known`: the hot cache) or else the consuming exercise
 * that archives it; undefined if an archived contract is found in neither.
 */
export function setsChangedBy(request: CommitRequest, known: (cid: string) => ContractRecord | undefined): (readonly [string, string])[] | undefined {
  if (request.kind !== "transaction") return [];
  const sets: (readonly [string, string])[] = [];
  for (const c of request.creates) for (const party of [...c.signatories, ...c.observers]) sets.push([party, c.templateId]);
  if (request.archives.length === 0) return sets;
  const consumed = new Map<string, { templateId: string; stakeholders: readonly string[] }>();
  for (const n of request.transaction.nodes) if (n.kind === "exercise" && n.consuming) consumed.set(n.contractId, n);
  for (const cid of request.archives) {
    const record = known(cid);
    const by = record ? undefined : consumed.get(cid);
    const stakeholders = record ? [...record.signatories, ...record.observers] : by?.stakeholders;
    const template = record?.templateId ?? by?.templateId;
    if (!stakeholders || !template) return undefined;
    for (const party of stakeholders) sets.push([party, template]);
  }
  return sets;
}
