/**
 * Typed payloads of contracts, decoded once per payload object: a store that keeps hot contracts
 * and recent query results hands out the same record each time (the network's rules and rounds in
 * every transfer, the delegations the automation reads on every pass), and a contract created by
 * this node keeps, in its record, in its transaction's create node and in every copy the caches
 * make, the one JSON object the interpreter encoded — which is registered here with the typed
 * value it was encoded from, so nothing decodes it back. The payloads are shared by every reader,
 * so they are frozen: a reader that writes into one fails loudly instead of changing what the next
 * interpretation sees.
 */
import { fromDamlJson, type DamlType } from "./daml-type.js";

const decoded = new WeakMap<object, { readonly type: DamlType; readonly payload: unknown }>();

export function decodedPayload(type: DamlType, record: { readonly payload: unknown }): unknown {
  const json = record.payload;
  if (json === null || typeof json !== "object") return fromDamlJson(type, json);
  const hit = decoded.get(json);
  if (hit?.type === type) return hit.payload;
  const payload = deepFreeze(fromDamlJson(type, json));
  decoded.set(json, { type, payload });
  return payload;
}

/** `json` is `typed` encoded (by the interpreter, creating a contract): readers of `json` get `typed`. */
export function rememberPayload(type: DamlType, json: unknown, typed: unknown): void {
  if (json !== null && typeof json === "object") decoded.set(json, { type, payload: deepFreeze(typed) });
}

function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== "object" || Object.isFrozen(v)) return v;
  Object.freeze(v);
  for (const x of Object.values(v as object)) deepFreeze(x);
  return v;
}
