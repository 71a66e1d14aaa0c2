/**
 * A created contract's stored record, as a span of its transaction's nodes JSON. The interpreter
 * builds a contract's record and its create node from the same values, and the node's JSON is in
 * the write request anyway, so the record's JSON is most of the node's text: encoding it again on
 * the event loop (11 µs of a transfer's ~300) and cloning it to the writer thread a second time
 * bought nothing. The writer joins the span to the few fields only the record has.
 *
 *   node:   {"kind":"create","nodeId":N,"contractId":…,"observers":[…][,"key":…],"salt":"S","witnesses":[…]}
 *   record: {"contractId":…,"observers":[…][,"key":…][,"keyHash":…],"createdAt":{"$n":"T"},"createUpdateId":"U","nodeId":N,"salt":"S"}
 *
 * which is exactly what `encodeRecord` writes for the record (its fields in that order).
 */
import type { ContractRecord, CreateNodeRecord, TransactionRecord } from "../../ledger/records.js";
import { encodeRecord } from "../codec.js";
import { extend } from "../../util/extend.js";

/** The record is `{` + nodes JSON [from, to) + `rest`. */
export interface RecordInNodes {
  readonly from: number;
  readonly to: number;
  readonly rest: string;
}

type Created = Omit<ContractRecord, "createdOffset">;

const NODE_KEYS = ["kind", "nodeId", "contractId", "templateId", "packageName", "payload", "signatories", "observers"];
/** A record's fields as the interpreter orders them (the span and `rest` write them so). */
const RECORD_KEYS = ["contractId", "templateId", "packageName", "payload", "signatories", "observers", "createdAt", "createUpdateId", "nodeId", "salt"];
const KEYED_RECORD_KEYS = [...RECORD_KEYS.slice(0, 6), "key", "keyHash", ...RECORD_KEYS.slice(6)];

/**
 * Where each of `creates`' records lies in `nodesJson` (the JSON of `tx.nodes`), or undefined for
 * one that cannot be taken from there: its node does not hold the record's very values, the node's
 * or the record's fields are not in the interpreter's order, or it has no salt (the salt's text is
 * what finds the node's end). Creates come in node order, so each search starts where the last
 * one ended: a transaction of many creates is one pass over its text, not one per create.
 */
export function recordsInNodes(creates: readonly Created[], tx: Pick<TransactionRecord, "nodes" | "effectiveAt" | "updateId">, nodesJson: string): (RecordInNodes | undefined)[] {
  let cursor = 0;
  return creates.map((c) => {
    const at = recordInNodes(c, tx, nodesJson, cursor) ?? (cursor > 0 ? recordInNodes(c, tx, nodesJson, 0) : undefined);
    if (at) cursor = at.to;
    return at;
  });
}

function recordInNodes(c: Created, tx: Pick<TransactionRecord, "nodes" | "effectiveAt" | "updateId">, nodesJson: string, after: number): RecordInNodes | undefined {
  const node = tx.nodes[c.nodeId];
  if (node?.kind !== "create" || c.salt === undefined || c.createdAt !== tx.effectiveAt || c.createUpdateId !== tx.updateId || !sharesValues(c, node)) return undefined;
  // No value can hold the node's head: quotes inside JSON strings are escaped, and Daml-LF JSON
  // writes integers as strings, never as a bare number after "nodeId". Nor can one hold the
  // salt, a secret of the transaction's seed made after its values.
  const head = `{"kind":"create","nodeId":${c.nodeId},`;
  const from = nodesJson.indexOf(`${head}"contractId":${JSON.stringify(c.contractId)},`, after) + head.length;
  if (from < head.length) return undefined;
  // The node's last two fields are its salt and witnesses (sharesValues): the salt's text ends the span.
  const to = nodesJson.indexOf(`,"salt":${JSON.stringify(c.salt)},"witnesses":`, from);
  if (to < 0) return undefined;
  // The record's own fields, encoded as the codec encodes them (its `{` dropped: they follow the span).
  const fields = { createdAt: c.createdAt, createUpdateId: c.createUpdateId, nodeId: c.nodeId, salt: c.salt };
  const own = c.keyHash === undefined ? fields : extend({ keyHash: c.keyHash }, fields);
  return { from, to, rest: `,${encodeRecord(own).slice(1)}` };
}

/** The record's JSON (the writer's side). */
export function recordText(nodesJson: string, at: RecordInNodes): string {
  return `{${nodesJson.slice(at.from, at.to)}${at.rest}`;
}

/** The node holds the record's own values, its fields in the order the interpreter writes them. */
function sharesValues(c: Created, node: CreateNodeRecord): boolean {
  if (
    node.contractId !== c.contractId ||
    node.templateId !== c.templateId ||
    node.packageName !== c.packageName ||
    node.payload !== c.payload ||
    node.signatories !== c.signatories ||
    node.observers !== c.observers ||
    node.key !== c.key ||
    node.salt !== c.salt ||
    (c.key === undefined) !== (c.keyHash === undefined)
  ) {
    return false;
  }
  const keys = Object.keys(node);
  const expected = c.key === undefined ? NODE_KEYS.length + 2 : NODE_KEYS.length + 3;
  if (keys.length !== expected || keys[keys.length - 2] !== "salt" || keys[keys.length - 1] !== "witnesses") return false;
  if (c.key !== undefined && keys[NODE_KEYS.length] !== "key") return false;
  if (!NODE_KEYS.every((k, i) => keys[i] === k)) return false;
  const recordKeys = Object.keys(c);
  const expectedRecord = c.key === undefined ? RECORD_KEYS : KEYED_RECORD_KEYS;
  return recordKeys.length === expectedRecord.length && expectedRecord.every((k, i) => recordKeys[i] === k);
}
