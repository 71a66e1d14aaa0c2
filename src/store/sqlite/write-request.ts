/**
 * A commit request as the SQLite writer takes it: plain data (it crosses to the writer thread by
 * structured clone), its records already encoded on the event loop, without the offset only the
 * writer knows. A conflict's completion is built by the store afterwards (`onConflict` is code).
 */
import type { Deduplication, CommitRequest } from "../../ledger/store-port.js";
import { encodeRecord, encodeRecordApart, withBigint, withJson } from "../codec.js";
import { recordsInNodes, recordText, type RecordInNodes } from "./created-record.js";

export interface CreateRow {
  readonly contractId: string;
  readonly templateId: string;
  readonly keyHash: string | null;
  readonly nodeId: number;
  readonly stakeholders: readonly string[];
  /** The contract's record without `createdOffset`, or where it lies in the transaction's `nodes` (created-record.ts). */
  readonly record: string | RecordInNodes;
}

export type WriteRequest =
  | { readonly kind: "rejection"; readonly completion: string; readonly userId: string }
  | {
      readonly kind: "transaction";
      readonly dedup: Deduplication | undefined;
      readonly updateId: string;
      readonly inputs: readonly string[];
      readonly archives: readonly string[];
      readonly creates: readonly CreateRow[];
      /** The transaction's record without `offset`, and without `nodes` when `nodes` is set. */
      readonly transaction: string;
      /** The JSON of the transaction's nodes, joined to its record by the writer (see encodeRecordApart). */
      readonly nodes: string | undefined;
      readonly completion: string;
      readonly userId: string;
      readonly recordTime: bigint;
    };

export function writeRequestOf(request: CommitRequest): WriteRequest {
  const completion = encodeRecord(request.completion);
  if (request.kind === "rejection") return { kind: "rejection", completion, userId: request.completion.userId };
  const tx = request.transaction;
  const transaction = encodeRecordApart(tx, "nodes");
  const nodes = transaction.part;
  const inNodes = nodes === undefined ? [] : recordsInNodes(request.creates, tx, nodes);
  return {
    kind: "transaction",
    dedup: request.dedup,
    updateId: tx.updateId,
    inputs: request.inputs,
    archives: request.archives,
    creates: request.creates.map((c, i) => ({
      contractId: c.contractId,
      templateId: c.templateId,
      keyHash: c.keyHash ?? null,
      nodeId: c.nodeId,
      stakeholders: [...new Set([...c.signatories, ...c.observers])],
      record: inNodes[i] ?? encodeRecord(c),
    })),
    transaction: transaction.rest,
    nodes,
    completion,
    userId: request.completion.userId,
    recordTime: request.completion.recordTime,
  };
}

/** A created contract's record without `createdOffset`. */
export function createRecordText(r: Extract<WriteRequest, { kind: "transaction" }>, c: CreateRow): string {
  return typeof c.record === "string" ? c.record : recordText(r.nodes!, c.record);
}

/** The transaction's record as stored: its nodes joined, its offset set. */
export function transactionText(r: Extract<WriteRequest, { kind: "transaction" }>, offset: bigint): string {
  return withBigint(r.nodes === undefined ? r.transaction : withJson(r.transaction, "nodes", r.nodes), "offset", offset);
}
