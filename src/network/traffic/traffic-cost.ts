/**
 * What a transaction costs to sequence. Canton charges a member per submission request: a base
 * event cost plus the bytes of the confirmation request (envelopes for every recipient, scaled by
 * `readVsWriteScalingFactor`). We have no envelopes, so the model is:
 *
 *   cost = 5,000 + UTF-8 byte length of JSON.stringify(transaction.nodes) + 100 × external signatures
 *
 * in bytes: 5,000 stands for the fixed per-event overhead (signatures, headers, the mediator's
 * response), the nodes' JSON for the confirmation request's payload. Deterministic, so a test can
 * recompute it from the committed transaction.
 */
import type { NodeRecord } from "../../ledger/records.js";
import { plainJson } from "../../ledger/plain-json.js";

/**
 * Bytes one external signature adds to an externally signed transaction's request: the 64-byte
 * Ed25519 signature, the signing key's 34-byte fingerprint (multihash: 2-byte prefix and SHA-256)
 * and 2 bytes for its format and algorithm. Charged per signature the execute carries and
 * estimated per expected signature at prepare; a node-signed submission carries none (its
 * participant signature is in the base cost).
 */
export const SIGNATURE_TRAFFIC_BYTES = 100n;

/** Bytes every transaction pays whatever its size. */
export const BASE_EVENT_COST = 5_000n;

export function trafficCostOf(nodes: readonly NodeRecord[], signatures = 0): bigint {
  return BASE_EVENT_COST + BigInt(Buffer.byteLength(nodesJson(nodes), "utf8")) + BigInt(signatures) * SIGNATURE_TRAFFIC_BYTES;
}

function nodesJson(nodes: readonly NodeRecord[]): string {
  // Payloads are Daml-LF JSON (numbers as strings); a bigint would only come from a hand-built
  // record, so the replacer (called for every value, twice as slow) is only the fallback. The
  // plain JSON is kept for the store, which writes the same nodes next.
  return plainJson(nodes) ?? JSON.stringify(nodes, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}
