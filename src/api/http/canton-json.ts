/**
 * One descriptor-driven codec between protobuf-es messages of the Ledger API v2
 * (`com.daml.ledger.api.v2.*`, `google.rpc.Status`, well-known types) and Canton's
 * JSON Ledger API v2 encoding (Canton 3.4.12).
 *
 * Generic rules (every message):
 * - keys are the proto `json_name`s, except `FIELD_RENAMES`;
 * - proto3 scalars, enums, repeated and map fields are always printed (defaults included);
 *   message fields and proto3 `optional` fields only when set;
 * - 64-bit integers are JSON numbers (input: numbers or numeric strings), 32-bit ones numbers,
 *   bytes base64, enums their full value name (input: name or number);
 * - oneofs as described by `ONEOF_STYLES` (default: the scalapb shape
 *   `"<oneof>": {"<Variant>": {"value": ...}}`, `{"Empty": {}}` when unset).
 * Special message types (`SPECIAL_MESSAGES`, keyed by full name): Timestamp (ISO-8601 string),
 * Duration (`{seconds, nanos, unknownFields}`), Empty (`{}`), Any (ProtoAny), Identifier
 * (`"pkg:Module:Entity"`), and Daml values (`Value` / `Record`: Daml-LF JSON out, `DamlValueCodec` in).
 *
 * Input is strict about shape: unknown keys, wrong JSON types, bad enum names and malformed
 * scalars are `CantonJsonError`s carrying the JSON path; `null` means "unset"; missing fields
 * take their proto defaults (required-field checks belong to the services).
 *
 * The parts: canton-json-tables.ts (the special cases as data), canton-json-layout.ts (JSON keys of
 * a message), canton-json-scalars.ts, canton-json-special.ts (special message types),
 * canton-json-encode.ts, canton-json-decode.ts, canton-json-daml.ts (Daml-LF JSON printer).
 */
import type { DescMessage, Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { decodeMessage, type DamlValueCodec } from "./canton-json-decode.js";
import { encodeMessage } from "./canton-json-encode.js";
import { TYPE_RECORD, TYPE_VALUE } from "./canton-json-tables.js";

export { protoRecordToDamlJson, protoValueToDamlJson } from "../convert/canton-json-daml.js";
export type { DamlValueCodec } from "./canton-json-decode.js";
export { CantonJsonError } from "./canton-json-error.js";
export { FIELD_RENAMES, ONEOF_STYLES } from "./canton-json-tables.js";

/** proto -> Canton JSON (a plain value ready for `JSON.stringify`). */
export function toCantonJson(schema: DescMessage, message: Message): unknown {
  if (message.$typeName !== schema.typeName) {
    throw new TypeError(`toCantonJson: expected a ${schema.typeName}, got a ${message.$typeName}`);
  }
  return encodeMessage(schema, message);
}

/** Canton JSON -> proto. Throws `CantonJsonError` on a shape error. */
export function fromCantonJson<T extends Message>(schema: GenMessage<T>, json: unknown, daml: DamlValueCodec): T {
  const desc = schema as unknown as DescMessage;
  if (desc.typeName === TYPE_VALUE || desc.typeName === TYPE_RECORD) {
    throw new TypeError("fromCantonJson: Daml values are decoded by the DamlValueCodec of their enclosing field");
  }
  return decodeMessage(desc, json, "", daml) as T;
}
