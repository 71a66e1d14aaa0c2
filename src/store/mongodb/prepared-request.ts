/**
 * A commit request with its records encoded, before the transaction: once per request however
 * often `withTransaction` runs the transaction, and early enough to measure what it will write
 * (document-size.ts) while it can still be refused alone. The offsets come in the transaction.
 */
import type { CommitRequest, RejectionCommit, TransactionCommit } from "../../ledger/store-port.js";
import { encodeRecord } from "../codec.js";
import type { CompletionDoc, ContractDoc, DedupDoc, EncodedCreate, TransactionDoc } from "./documents.js";
import { completionDoc, contractDoc, encodeCreate, transactionDoc } from "./documents.js";

export interface PreparedRejection {
  readonly kind: "rejection";
  readonly request: RejectionCommit;
  readonly completionJson: string;
}

export interface PreparedTransaction {
  readonly kind: "transaction";
  readonly request: TransactionCommit;
  readonly creates: readonly EncodedCreate[];
  readonly transactionJson: string;
  readonly completionJson: string;
}

export type PreparedRequest = PreparedRejection | PreparedTransaction;

export function prepareRequest(request: CommitRequest): PreparedRequest {
  const completionJson = encodeRecord(request.completion);
  if (request.kind === "rejection") return { kind: "rejection", request, completionJson };
  return { kind: "transaction", request, creates: request.creates.map(encodeCreate), transactionJson: encodeRecord(request.transaction), completionJson };
}

/** The documents a request writes when it commits (without conflict) at `offset`. */
export interface WrittenDocuments {
  readonly contracts: readonly ContractDoc[];
  readonly transaction?: TransactionDoc;
  readonly completion: CompletionDoc;
  readonly dedup?: DedupDoc;
}

export function documentsAt(prepared: PreparedRequest, offset: bigint): WrittenDocuments {
  const completion = completionDoc(prepared.request.completion, prepared.completionJson, offset);
  if (prepared.kind === "rejection") return { contracts: [], completion };
  const { request } = prepared;
  return {
    contracts: prepared.creates.map((c) => contractDoc(c, offset)),
    transaction: transactionDoc(request.transaction, prepared.transactionJson, offset),
    completion,
    ...(request.dedup ? { dedup: { _id: request.dedup.changeKey, offset, recordTime: request.completion.recordTime } } : {}),
  };
}
