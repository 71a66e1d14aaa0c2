/**
 * A party's active contracts of one template, as last read, kept until a write touches that
 * party and template. A wallet request reads the same few small sets again and again (the
 * receiver's preapproval, the provider's featured app right, a sender's empty coupon kinds);
 * this process is the file's only writer, so each write says exactly which sets it changes.
 * Only small sets are kept: large ones (a DSO's rounds, a busy party's holdings) change on
 * nearly every write anyway.
 */
import type { ContractRecord } from "../../ledger/records.js";

const MAX_ROWS = 16;
const MAX_ENTRIES = 50_000;

export class PartyTemplateCache {
  private readonly entries = new Map<string, readonly ContractRecord[]>();

  get(party: string, template: string): readonly ContractRecord[] | undefined {
    return this.entries.get(key(party, template));
  }

  put(party: string, template: string, rows: readonly ContractRecord[]): void {
    if (rows.length > MAX_ROWS) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key(party, template), rows);
  }

  /** A contract of `template` with stakeholder `party` was created or archived. */
  changed(party: string, template: string): void {
    this.entries.delete(key(party, template));
  }
}

function key(party: string, template: string): string {
  return `${party}\u0000${template}`;
}
