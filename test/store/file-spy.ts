/**
 * For store tests that look at the SQLite file beside the store: a fresh file, the store's
 * internals, and a read-only spy that reconstructs the ACS at an offset without the store's code.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { ContractRecord } from "../../src/ledger/records.js";
import type { ContractQuery } from "../../src/ledger/store-port.js";
import { decodeRecord } from "../../src/store/codec.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";

export function freshFile(): string {
  return join(mkdtempSync(join(tmpdir(), "ccwallet-durable-")), "ledger.sqlite");
}

export const turn = () => new Promise((resolve) => setImmediate(resolve));

export interface Internals {
  durableEnd: bigint;
  inFlight: number;
  blind: number;
  db: Database.Database;
  flush(mayHold?: boolean): void;
  writer: { worker?: import("node:worker_threads").Worker };
}
export const internals = (s: SqliteStore) => s as unknown as Internals;

/** A read-only spy on the file (or the store's own connection for :memory:). */
export class Spy {
  private readonly db: Database.Database;
  private readonly own: boolean;
  constructor(file: string, store?: SqliteStore) {
    this.own = file === ":memory:";
    this.db = this.own ? internals(store!).db : new Database(file, { readonly: true });
    if (!this.own) this.db.defaultSafeIntegers(true);
  }
  maxOffset(): bigint {
    const r = this.db.prepare("SELECT MAX(m) AS m FROM (SELECT MAX(offset) AS m FROM transactions UNION ALL SELECT MAX(offset) FROM completions)").get() as { m: bigint | null };
    return BigInt(r.m ?? 0n);
  }
  /** Blocks until the file shows `offset` or the deadline passes; true if it does. */
  spinUntil(offset: bigint, ms: number): boolean {
    const deadline = performance.now() + ms;
    while (this.maxOffset() < offset) if (performance.now() > deadline) return false;
    return true;
  }
  /** ACS at E, independent of the store's code. */
  acsAt(E: bigint, q: Pick<ContractQuery, "parties" | "templateIds">): ContractRecord[] {
    const rows = this.db
      .prepare("SELECT record, created_offset, node_id FROM contracts WHERE created_offset <= ? AND (archived_offset IS NULL OR archived_offset > ?) ORDER BY created_offset, node_id")
      .all(E, E) as { record: string }[];
    return rows
      .map((r) => decodeRecord<ContractRecord>(r.record))
      .filter((c) => (q.parties === undefined || [...c.signatories, ...c.observers].some((p) => q.parties!.includes(p))) && (q.templateIds === undefined || q.templateIds.includes(c.templateId)));
  }
  history(E: bigint, cid: string): { contractId: string; archivedOffset?: bigint } | undefined {
    const r = this.db.prepare("SELECT record, archived_offset FROM contracts WHERE contract_id = ?").get(cid) as { record: string; archived_offset: bigint | null } | undefined;
    if (!r) return undefined;
    const c = decodeRecord<ContractRecord>(r.record);
    if (c.createdOffset > E) return undefined;
    const a = r.archived_offset === null ? undefined : BigInt(r.archived_offset);
    return a !== undefined && a <= E ? { contractId: c.contractId, archivedOffset: a } : { contractId: c.contractId };
  }
  close(): void {
    if (!this.own) this.db.close();
  }
}
