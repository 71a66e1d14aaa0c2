/**
 * The ledger's writes on one SQLite connection: a batch of requests in one transaction, each
 * checked for conflicts against the file as that transaction sees it, so two requests spending
 * one contract can never both commit. It runs on the writer thread (writer-thread.ts) for a
 * file, in-thread for `:memory:`; either way it is the file's only ledger writer, and `end` is
 * the last offset it wrote.
 */
import type Database from "better-sqlite3";
import { isDuplicate } from "../../ledger/deduplication.js";
import type { ContractRecord } from "../../ledger/records.js";
import type { Conflict } from "../../ledger/store-port.js";
import { decodeRecord, withBigint } from "../codec.js";
import { prepareLedgerStatements, type LedgerStatements } from "./ledger-statements.js";
import { createRecordText, transactionText, type WriteRequest } from "./write-request.js";

/** What one request came to. */
export type WriteOutcome =
  | { readonly kind: "committed"; readonly offset: bigint }
  | { readonly kind: "rejected"; readonly offset: bigint }
  | { readonly kind: "conflict"; readonly conflict: Conflict }
  | { readonly kind: "failed"; readonly error: string };

export class LedgerWriter {
  private readonly s: LedgerStatements;
  /** A batch in one SQLite transaction; with `isolate`, each request in its own savepoint. */
  private readonly writeBatch: Database.Transaction<(batch: readonly WriteRequest[], isolate: boolean) => WriteOutcome[]>;
  private readonly applyInSavepoint: (request: WriteRequest) => WriteOutcome;
  end: bigint;

  constructor(db: Database.Database) {
    this.s = prepareLedgerStatements(db);
    this.applyInSavepoint = db.transaction((request: WriteRequest) => this.apply(request));
    this.writeBatch = db.transaction((batch: readonly WriteRequest[], isolate: boolean) =>
      batch.map((r) => (isolate ? this.applyIsolated(r) : this.apply(r))),
    );
    this.end = (this.s.maxOffset.get() as { m: bigint | null }).m ?? 0n;
  }

  /** The batch, committed; throws only if the commit itself failed (nothing of it was written). */
  write(batch: readonly WriteRequest[]): WriteOutcome[] {
    const startEnd = this.end;
    try {
      // IMMEDIATE: the write lock first (waiting out another writer, such as the event loop's
      // directory writes), then the reads; a deferred BEGIN whose reads were overtaken by another
      // connection's commit fails its first write with SQLITE_BUSY, whatever the busy timeout.
      return this.writeBatch.immediate(batch, false);
    } catch {
      // A request's write threw (rare): the whole transaction rolled back. Redo the batch with a
      // savepoint per request, so the one that throws is rolled back and failed alone and the
      // others still commit together. Savepoints cost two statements per request, so they are
      // only paid on this path.
      this.end = startEnd;
      try {
        return this.writeBatch.immediate(batch, true);
      } catch (e) {
        this.end = startEnd;
        throw e;
      }
    }
  }

  private applyIsolated(request: WriteRequest): WriteOutcome {
    const before = this.end;
    try {
      return this.applyInSavepoint(request);
    } catch (error) {
      this.end = before;
      return { kind: "failed", error: error instanceof Error ? error.message : String(error) };
    }
  }

  private apply(r: WriteRequest): WriteOutcome {
    const s = this.s;
    const offset = this.end + 1n;
    if (r.kind === "rejection") {
      s.insertCompletion.run(offset, withBigint(r.completion, "offset", offset), r.userId);
      this.end = offset;
      return { kind: "rejected", offset };
    }
    const conflict = this.findConflict(r);
    if (conflict) return { kind: "conflict", conflict };
    for (const cid of r.archives) {
      s.archive.run(offset, cid);
      s.archiveStakeholders.run(cid);
    }
    for (const c of r.creates) {
      s.insertContract.run(c.contractId, c.templateId, c.keyHash, offset, c.nodeId, withBigint(createRecordText(r, c), "createdOffset", offset));
      for (const party of c.stakeholders) s.insertStakeholder.run(party, c.templateId, offset, c.nodeId, c.contractId);
    }
    s.insertTx.run(offset, r.updateId, transactionText(r, offset));
    s.insertCompletion.run(offset, withBigint(r.completion, "offset", offset), r.userId);
    if (r.dedup) s.upsertDedup.run(r.dedup.changeKey, offset, r.recordTime);
    this.end = offset;
    return { kind: "committed", offset };
  }

  private findConflict(r: Extract<WriteRequest, { kind: "transaction" }>): Conflict | undefined {
    const s = this.s;
    if (r.dedup) {
      const prev = s.dedup.get(r.dedup.changeKey) as { offset: bigint; record_time: bigint } | undefined;
      if (prev && isDuplicate({ offset: prev.offset, recordTime: prev.record_time }, r.dedup)) {
        return { kind: "duplicateCommand", existingOffset: prev.offset };
      }
    }
    // Update ids are unique; only an externally signed one (fixed by its parties) can come twice.
    const sameId = s.txOffsetById.get(r.updateId) as { offset: bigint } | undefined;
    if (sameId) return { kind: "duplicateCommand", existingOffset: sameId.offset };
    const inactive = r.inputs.filter((cid) => s.isActive.get(cid) === undefined);
    if (inactive.length > 0) return { kind: "inactive", contractIds: inactive };
    const archived = new Set(r.archives);
    for (const c of r.creates) {
      if (c.keyHash && s.keyInUse.get(c.keyHash) !== undefined) {
        // A key freed by an archive in this same transaction may be reused.
        const holder = s.contractByKey.get(c.keyHash) as { record: string } | undefined;
        const holderId = holder && decodeRecord<ContractRecord>(holder.record).contractId;
        if (!holderId || !archived.has(holderId)) return { kind: "duplicateKey", keyHash: c.keyHash };
      }
    }
    return undefined;
  }
}
