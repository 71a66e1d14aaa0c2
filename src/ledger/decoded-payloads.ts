/**
 * Typed payloads of stored contracts, decoded once per record object: a store that keeps hot
 * contracts and recent query results hands out the same record each time (the network's rules and
 * rounds in every transfer, the delegations the automation reads on every pass). The payloads are
 * shared by every reader, so they are frozen: a reader that writes into one fails loudly instead
 * of changing what the next interpretation sees.
 */
import { fromDamlJson, type DamlType } from "./daml-type.js";
import type { ContractRecord } from "./records.js";

const decoded = new WeakMap<ContractRecord, { readonly type: DamlType; readonly payload: unknown }>();

export function decodedPayload(type: DamlType, record: ContractRecord): unknown {
  const hit = decoded.get(record);
  if (hit?.type === type) return hit.payload;
  const payload = deepFreeze(fromDamlJson(type, record.payload));
  decoded.set(record, { type, payload });
  return payload;
}

function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== "object" || Object.isFrozen(v)) return v;
  Object.freeze(v);
  for (const x of Object.values(v as object)) deepFreeze(x);
  return v;
}
