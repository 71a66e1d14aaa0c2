/**
 * Documents of the MongoDB store. Each record is kept whole as codec JSON in `record` (the same
 * text the SQLite adapter stores), so the bigints inside payloads round-trip exactly; the other
 * fields exist only to be indexed and queried. Offsets and times are BSON int64: bigints are
 * written as int64, and the database handle is opened with `useBigInt64` so they come back as
 * bigints too.
 */
import type { Binary } from "mongodb";
import type { CompletionRecord, ContractRecord, TransactionRecord } from "../../ledger/records.js";
import { encodeRecord, withBigint } from "../codec.js";

export interface ContractDoc {
  /** The contract id. */
  _id: string;
  templateId: string;
  /** Only on keyed contracts, so that the unique active-key index (`$exists`) skips the others. */
  keyHash?: string;
  /** Signatories and observers: the parties that see the contract as active. */
  stakeholders: string[];
  createdOffset: bigint;
  nodeId: number;
  /** null while the contract is active. */
  archivedOffset: bigint | null;
  record: string;
}

/** A committed transaction, keyed by its offset. */
export interface TransactionDoc {
  _id: bigint;
  updateId: string;
  record: string;
}

/** The completion at offset `_id`: every offset has exactly one. */
export interface CompletionDoc {
  _id: bigint;
  record: string;
  /** Absent on documents written before completions were read by user (a query's `null` matches them). */
  userId?: string | null;
}

/** The last acceptance of a change id (`_id`), for command deduplication. */
export interface DedupDoc {
  _id: string;
  offset: bigint;
  recordTime: bigint;
}

/** A party (keyed by party id) or a user (keyed by user id). */
export interface RecordDoc {
  _id: string;
  record: string;
}

/** An uploaded Daml-LF package, keyed by package id; listings project the payload away. */
export interface PackageDoc {
  _id: string;
  name: string;
  version: string;
  knownSince: bigint;
  size: number;
  payload: Binary;
}

export interface SettingDoc {
  _id: string;
  value: string;
}

/** A counter, such as the last offset assigned. */
export interface CounterDoc {
  _id: string;
  value: bigint;
}

/** A create, its record encoded without its offset. */
export interface EncodedCreate {
  readonly create: Omit<ContractRecord, "createdOffset">;
  readonly json: string;
}

export function encodeCreate(create: Omit<ContractRecord, "createdOffset">): EncodedCreate {
  return { create, json: encodeRecord(create) };
}

export function contractDoc({ create, json }: EncodedCreate, offset: bigint): ContractDoc {
  return {
    _id: create.contractId,
    templateId: create.templateId,
    // Omitted rather than undefined: the driver would store undefined as null, which `$exists`
    // counts as present, and every unkeyed active contract would then collide in the key index.
    ...(create.keyHash === undefined ? {} : { keyHash: create.keyHash }),
    stakeholders: [...new Set([...create.signatories, ...create.observers])],
    createdOffset: offset,
    nodeId: create.nodeId,
    archivedOffset: null,
    record: withBigint(json, "createdOffset", offset),
  };
}

/** `json`: the transaction's record encoded without its offset. */
export function transactionDoc(transaction: Omit<TransactionRecord, "offset">, json: string, offset: bigint): TransactionDoc {
  return { _id: offset, updateId: transaction.updateId, record: withBigint(json, "offset", offset) };
}

/** `json`: the completion's record encoded without its offset. */
export function completionDoc(completion: Omit<CompletionRecord, "offset">, json: string, offset: bigint): CompletionDoc {
  return { _id: offset, record: withBigint(json, "offset", offset), userId: completion.userId };
}

/** A completion encoded on the spot (the rejection written instead when a commit finds a conflict). */
export function completionDocOf(completion: Omit<CompletionRecord, "offset">, offset: bigint): CompletionDoc {
  return completionDoc(completion, encodeRecord(completion), offset);
}
