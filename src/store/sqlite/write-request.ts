/**
 * A commit request as the SQLite writer takes it: plain data (it crosses to the writer thread by
 * structured clone), its records already encoded on the event loop, without the offset only the
 * writer knows. A conflict's completion is built by the store afterwards (`onConflict` is code).
 *
 * A contract the transaction creates is, field for field, its create node plus when and by which
 * update it was created; the node's JSON is already in the request. Such a contract's record is
 * therefore made by the writer from that JSON (`createdRecords`), beside the event loop, rather
 * than encoded again on the loop and cloned across a second time.
 */
import type { CreateNodeRecord, NodeRecord, ContractRecord } from "../../ledger/records.js";
import type { Deduplication, CommitRequest } from "../../ledger/store-port.js";
import { encodeRecord, encodeRecordApart, withBigint, withJson } from "../codec.js";

export interface CreateRow {
  readonly contractId: string;
  readonly templateId: string;
  readonly keyHash: string | null;
  readonly nodeId: number;
  readonly stakeholders: readonly string[];
  /** The contract's record without `createdOffset`; undefined when the writer makes it from the create node (`createdRecords`). */
  readonly record: string | undefined;
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
      /** The transaction's ledger time: its contracts' `createdAt`. */
      readonly effectiveAt: bigint;
    };

export function writeRequestOf(request: CommitRequest): WriteRequest {
  const completion = encodeRecord(request.completion);
  if (request.kind === "rejection") return { kind: "rejection", completion, userId: request.completion.userId };
  const tx = request.transaction;
  const transaction = encodeRecordApart(tx, "nodes");
  // Only with the nodes' JSON apart can the writer find a create node in it.
  const fromNode = (c: Omit<ContractRecord, "createdOffset">) =>
    transaction.part !== undefined && c.createdAt === tx.effectiveAt && c.createUpdateId === tx.updateId && isItsNode(c, tx.nodes[c.nodeId]);
  return {
    kind: "transaction",
    dedup: request.dedup,
    updateId: tx.updateId,
    inputs: request.inputs,
    archives: request.archives,
    creates: request.creates.map((c) => ({
      contractId: c.contractId,
      templateId: c.templateId,
      keyHash: c.keyHash ?? null,
      nodeId: c.nodeId,
      stakeholders: [...new Set([...c.signatories, ...c.observers])],
      record: fromNode(c) ? undefined : encodeRecord(c),
    })),
    transaction: transaction.rest,
    nodes: transaction.part,
    completion,
    userId: request.completion.userId,
    recordTime: request.completion.recordTime,
    effectiveAt: tx.effectiveAt,
  };
}

/**
 * Whether `node` is the create of `c`, holding the very values the record holds (the interpreter
 * builds both from the same objects): then the record made from the node's JSON is the record.
 */
function isItsNode(c: Omit<ContractRecord, "createdOffset">, node: NodeRecord | undefined): boolean {
  return (
    node?.kind === "create" &&
    node.contractId === c.contractId &&
    node.templateId === c.templateId &&
    node.packageName === c.packageName &&
    node.payload === c.payload &&
    node.signatories === c.signatories &&
    node.observers === c.observers &&
    node.key === c.key &&
    node.salt === c.salt
  );
}

/**
 * The records of the contracts a transaction creates whose `record` was left to the writer, by
 * node id: each made from its create node in the transaction's nodes JSON, with the fields in the
 * order `encodeRecord` writes a record the interpreter built (payload and parties as the node has
 * them, then the key hash, the creation time and update, the node id and the salt).
 */
export function createdRecords(r: Extract<WriteRequest, { kind: "transaction" }>): Map<number, string> {
  const records = new Map<number, string>();
  if (r.nodes === undefined || r.creates.every((c) => c.record !== undefined)) return records;
  const nodes = JSON.parse(r.nodes) as CreateNodeRecord[];
  for (const c of r.creates) {
    if (c.record !== undefined) continue;
    const n = nodes[c.nodeId];
    const record = {
      contractId: n.contractId,
      templateId: n.templateId,
      packageName: n.packageName,
      payload: n.payload,
      signatories: n.signatories,
      observers: n.observers,
      ...(c.keyHash !== null ? { key: n.key, keyHash: c.keyHash } : {}),
      createdAt: r.effectiveAt,
      createUpdateId: r.updateId,
      nodeId: n.nodeId,
      salt: n.salt,
    };
    records.set(c.nodeId, encodeRecord(record));
  }
  return records;
}

/** The transaction's record as stored: its nodes joined, its offset set. */
export function transactionText(r: Extract<WriteRequest, { kind: "transaction" }>, offset: bigint): string {
  return withBigint(r.nodes === undefined ? r.transaction : withJson(r.transaction, "nodes", r.nodes), "offset", offset);
}
