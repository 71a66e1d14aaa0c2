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
 */
import { create, isMessage, ScalarType, type DescEnum, type DescField, type DescMessage, type DescOneof, type Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import { AnySchema, DurationSchema, EmptySchema, TimestampSchema, type Any, type Duration, type Timestamp } from "@bufbuild/protobuf/wkt";
import {
  type Identifier,
  IdentifierSchema,
  type Record as ProtoRecord,
  RecordSchema,
  type Value,
  ValueSchema,
} from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { formatInstant, parseInstant, protoRecordToDamlJson, protoValueToDamlJson, setKey } from "./canton-json-daml.js";
import {
  FIELD_RENAMES,
  ONEOF_STYLES,
  type OneofStyle,
  TYPE_ANY,
  TYPE_DURATION,
  TYPE_EMPTY,
  TYPE_IDENTIFIER,
  TYPE_RECORD,
  TYPE_TIMESTAMP,
  TYPE_VALUE,
  type VariantStyle,
} from "./canton-json-tables.js";
import { expected, joinKey } from "./json-shape.js";

export { protoRecordToDamlJson, protoValueToDamlJson } from "./canton-json-daml.js";
export { FIELD_RENAMES, ONEOF_STYLES } from "./canton-json-tables.js";

type JsonObject = { [key: string]: unknown };

/** Converts the Daml-LF JSON of one field (createArguments, choiceArgument, contractKey, ...) to a proto value. */
export interface DamlValueCodec {
  /**
   * Daml-LF JSON -> proto Value/Record for a field that carries a Daml value; `context` gives the enclosing
   * message's JSON object as received (e.g. the command with templateId/choice) and the field's location.
   * Throws to reject: a `CantonJsonError` (path relative to the value, "" for the value itself) is re-thrown
   * with the field's path in front; any other error propagates unchanged.
   */
  decode(json: unknown, context: { message: DescMessage; field: DescField; parent: { [key: string]: unknown } }): Value | ProtoRecord;
}

/** A JSON shape error: `path` like `commands.commands[0].CreateCommand.templateId`, `problem` what is wrong there. */
export class CantonJsonError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${path || "(root)"}: ${problem}`, options);
    this.name = "CantonJsonError";
  }
}

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

// ---------------------------------------------------------------------------------------------
// Layout: the JSON keys of a message, derived once from its descriptor and the tables.

type Slot = { kind: "field"; field: DescField; key: string } | { kind: "oneof"; oneof: DescOneof; style: OneofStyle; key: string };

type KeyTarget =
  | { kind: "field"; field: DescField }
  | { kind: "nested"; oneof: DescOneof; style: OneofStyle }
  | { kind: "inline"; oneof: DescOneof; style: OneofStyle; field: DescField; variant: VariantStyle }
  | { kind: "inlineEmpty"; oneof: DescOneof; style: OneofStyle };

interface Layout {
  slots: Slot[];
  byKey: Map<string, KeyTarget>;
}

const layouts = new WeakMap<DescMessage, Layout>();

const pascal = (snake: string) => {
  const c = protoCamelCase(snake);
  return c.charAt(0).toUpperCase() + c.slice(1);
};

function oneofStyle(desc: DescMessage, oneof: DescOneof): OneofStyle {
  return (
    ONEOF_STYLES[`${desc.typeName}.${oneof.name}`] ?? {
      placement: "nested",
      variants: {},
      empty: "Empty",
      openapi: "(default scalapb oneof shape)",
    }
  );
}

function variantOf(style: OneofStyle, field: DescField): VariantStyle {
  return style.variants[field.name] ?? { name: pascal(field.name), withValue: true };
}

function layoutOf(desc: DescMessage): Layout {
  let layout = layouts.get(desc);
  if (layout) return layout;
  const slots: Slot[] = [];
  const byKey = new Map<string, KeyTarget>();
  const claim = (key: string, target: KeyTarget) => {
    if (byKey.has(key)) throw new Error(`canton-json: duplicate JSON key ${key} in ${desc.typeName}`);
    byKey.set(key, target);
  };
  for (const member of desc.members) {
    if (member.kind === "oneof") {
      const style = oneofStyle(desc, member);
      const key = protoCamelCase(member.name);
      slots.push({ kind: "oneof", oneof: member, style, key });
      if (style.placement === "nested") {
        claim(key, { kind: "nested", oneof: member, style });
      } else {
        for (const field of member.fields) claim(variantOf(style, field).name, { kind: "inline", oneof: member, style, field, variant: variantOf(style, field) });
        if (style.empty !== undefined) claim(style.empty, { kind: "inlineEmpty", oneof: member, style });
      }
    } else {
      const key = FIELD_RENAMES[`${desc.typeName}.${member.name}`] ?? member.jsonName;
      slots.push({ kind: "field", field: member, key });
      claim(key, { kind: "field", field: member });
    }
  }
  layout = { slots, byKey };
  layouts.set(desc, layout);
  return layout;
}

type ElemType = { kind: "scalar"; scalar: ScalarType; longAsString: boolean } | { kind: "enum"; enum: DescEnum } | { kind: "message"; message: DescMessage };

function elemType(f: DescField): ElemType {
  switch (f.fieldKind) {
    case "scalar":
      return { kind: "scalar", scalar: f.scalar, longAsString: f.longAsString };
    case "enum":
      return { kind: "enum", enum: f.enum };
    case "message":
      return { kind: "message", message: f.message };
    case "list":
      if (f.listKind === "scalar") return { kind: "scalar", scalar: f.scalar, longAsString: f.longAsString };
      return f.listKind === "enum" ? { kind: "enum", enum: f.enum } : { kind: "message", message: f.message };
    case "map":
      if (f.mapKind === "scalar") return { kind: "scalar", scalar: f.scalar, longAsString: false };
      return f.mapKind === "enum" ? { kind: "enum", enum: f.enum } : { kind: "message", message: f.message };
  }
}

// ---------------------------------------------------------------------------------------------
// Special message types (keyed by full name).

interface SpecialCodec {
  encode(message: Message): unknown;
  /** `json` is never null/undefined here. */
  decode(json: unknown, path: string): Message;
}

/** Canton prints scalapb's `unknownFields` of Duration and Any (ProtoAny.unknownFields is required). */
const unknownFieldsJson = () => ({ fields: {} });

const SPECIAL_MESSAGES: { readonly [typeName: string]: SpecialCodec } = {
  // JsTransaction.effectiveAt etc.: `type: string` (java.time.Instant#toString).
  [TYPE_TIMESTAMP]: {
    encode: (m) => formatInstant((m as Timestamp).seconds, (m as Timestamp).nanos),
    decode(json, path) {
      if (typeof json !== "string") fail(path, expected("an ISO-8601 timestamp string", json));
      const r = parseInstant(json);
      if (typeof r === "string") fail(path, r);
      return create(TimestampSchema, r);
    },
  },
  // OpenAPI Duration: {seconds: int64 REQ, nanos: int32 REQ, unknownFields: UnknownFieldSet opt};
  // a 3.4.12 participant prints `"unknownFields": {"fields": {}}` (e.g. GET /v2/version).
  [TYPE_DURATION]: {
    encode: (m) => ({ seconds: Number((m as Duration).seconds), nanos: (m as Duration).nanos, unknownFields: unknownFieldsJson() }),
    decode(json, path) {
      const o = expectObject(json, path);
      const d = create(DurationSchema);
      for (const key of Object.keys(o)) {
        const v = o[key];
        const p = joinKey(path, key);
        if (key !== "seconds" && key !== "nanos" && key !== "unknownFields") fail(p, "unknown field");
        if (v === null) continue;
        if (key === "seconds") d.seconds = decodeScalar(ScalarType.INT64, false, v, p) as bigint;
        else if (key === "nanos") d.nanos = decodeScalar(ScalarType.INT32, false, v, p) as number;
        else expectObject(v, p); // unknownFields: accepted, contents ignored
      }
      if (d.nanos < -999_999_999 || d.nanos > 999_999_999) fail(joinKey(path, "nanos"), "must be within ±999999999");
      if ((d.seconds > 0n && d.nanos < 0) || (d.seconds < 0n && d.nanos > 0)) fail(joinKey(path, "nanos"), "must have the sign of seconds");
      return d;
    },
  },
  [TYPE_EMPTY]: {
    encode: () => ({}),
    decode(json, path) {
      const o = expectObject(json, path);
      for (const key of Object.keys(o)) fail(joinKey(path, key), "unknown field");
      return create(EmptySchema);
    },
  },
  // OpenAPI ProtoAny: {typeUrl REQ, value REQ (base64), unknownFields REQ, valueDecoded opt}.
  [TYPE_ANY]: {
    encode: (m) => ({ typeUrl: (m as Any).typeUrl, value: Buffer.from((m as Any).value).toString("base64"), unknownFields: unknownFieldsJson() }),
    decode(json, path) {
      const o = expectObject(json, path);
      const a = create(AnySchema);
      for (const key of Object.keys(o)) {
        const v = o[key];
        const p = joinKey(path, key);
        if (key !== "typeUrl" && key !== "value" && key !== "unknownFields" && key !== "valueDecoded") fail(p, "unknown field");
        if (v === null) continue;
        if (key === "typeUrl") a.typeUrl = decodeScalar(ScalarType.STRING, false, v, p) as string;
        else if (key === "value") a.value = decodeScalar(ScalarType.BYTES, false, v, p) as Uint8Array;
        else if (key === "unknownFields") expectObject(v, p);
        else decodeScalar(ScalarType.STRING, false, v, p); // valueDecoded: informational only
      }
      return a;
    },
  },
  // templateId / interfaceId / implementedInterfaces: `type: string` ("<package-id>:<Module>:<Entity>";
  // input also "#<package-name>:<Module>:<Entity>", kept verbatim in package_id).
  [TYPE_IDENTIFIER]: {
    encode: (m) => `${(m as Identifier).packageId}:${(m as Identifier).moduleName}:${(m as Identifier).entityName}`,
    decode(json, path) {
      if (typeof json !== "string") fail(path, expected('an identifier string "<package>:<Module>:<Entity>"', json));
      const parts = json.split(":");
      if (parts.length !== 3 || parts.some((x) => x === "") || parts[0] === "#") {
        fail(path, `expected "<package-id>:<Module>:<Entity>" or "#<package-name>:<Module>:<Entity>", got ${JSON.stringify(json)}`);
      }
      return create(IdentifierSchema, { packageId: parts[0], moduleName: parts[1], entityName: parts[2] });
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Encoding.

function encodeMessage(desc: DescMessage, msg: Message): unknown {
  const special = SPECIAL_MESSAGES[desc.typeName];
  if (special) return special.encode(msg);
  if (desc.typeName === TYPE_VALUE) return protoValueToDamlJson(msg as Value);
  if (desc.typeName === TYPE_RECORD) return protoRecordToDamlJson(msg as ProtoRecord);
  const m = msg as unknown as JsonObject;
  const out: JsonObject = {};
  for (const slot of layoutOf(desc).slots) {
    if (slot.kind === "field") {
      const f = slot.field;
      const v = m[f.localName];
      if (f.fieldKind === "list") {
        setKey(out, slot.key, (v as unknown[]).map((e) => encodeElem(elemType(f), e)));
      } else if (f.fieldKind === "map") {
        const t = elemType(f);
        const o: JsonObject = {};
        for (const [k, e] of Object.entries(v as JsonObject)) setKey(o, k, encodeElem(t, e));
        setKey(out, slot.key, o);
      } else if (v !== undefined) {
        // implicit-presence scalars/enums are never undefined; message and `optional` fields are when unset
        setKey(out, slot.key, encodeElem(elemType(f), v));
      }
      continue;
    }
    const { oneof, style } = slot;
    const sel = m[oneof.localName] as { case: string | undefined; value?: unknown };
    let name: string;
    let body: unknown;
    if (sel.case === undefined) {
      if (style.empty === undefined) continue;
      name = style.empty;
      body = {};
    } else {
      const field = oneof.fields.find((f) => f.localName === sel.case);
      if (!field) throw new TypeError(`toCantonJson: ${desc.typeName}.${oneof.name} has unknown case ${sel.case}`);
      const variant = variantOf(style, field);
      const inner = encodeElem(elemType(field), sel.value);
      name = variant.name;
      body = variant.withValue ? { value: inner } : inner;
    }
    if (style.placement === "inline") {
      setKey(out, name, body);
    } else {
      const wrapper: JsonObject = {};
      setKey(wrapper, name, body);
      setKey(out, slot.key, wrapper);
    }
  }
  return out;
}

function encodeElem(t: ElemType, v: unknown): unknown {
  switch (t.kind) {
    case "message":
      return encodeMessage(t.message, v as Message);
    case "enum":
      return t.enum.values.find((x) => x.number === v)?.name ?? v;
    case "scalar":
      return encodeScalar(t.scalar, v);
  }
}

function encodeScalar(t: ScalarType, v: unknown): unknown {
  switch (t) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return Number(v as bigint | string);
    case ScalarType.BYTES:
      return Buffer.from(v as Uint8Array).toString("base64");
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE: {
      const n = v as number;
      return Number.isFinite(n) ? n : String(n);
    }
    default:
      return v;
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding.

function fail(path: string, problem: string): never {
  throw new CantonJsonError(path, problem);
}

function expectObject(v: unknown, path: string): JsonObject {
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(path, expected("an object", v));
  return v as JsonObject;
}

function decodeMessage(desc: DescMessage, json: unknown, path: string, daml: DamlValueCodec): Message {
  const special = SPECIAL_MESSAGES[desc.typeName];
  if (special) return special.decode(json, path);
  const obj = expectObject(json, path);
  const layout = layoutOf(desc);
  const msg = create(desc) as unknown as JsonObject;
  const setBy = new Map<DescOneof, string>();
  for (const key of Object.keys(obj)) {
    const target = layout.byKey.get(key);
    const p = joinKey(path, key);
    if (!target) fail(p, "unknown field");
    const v = obj[key];
    if (v === null || v === undefined) continue;
    switch (target.kind) {
      case "field": {
        msg[target.field.localName] = decodeField(desc, target.field, v, p, daml, obj);
        break;
      }
      case "nested": {
        const sel = decodeNestedOneof(desc, target.oneof, target.style, v, p, daml, obj);
        if (sel) msg[target.oneof.localName] = sel;
        break;
      }
      case "inline":
      case "inlineEmpty": {
        const other = setBy.get(target.oneof);
        if (other !== undefined) fail(p, `only one of ${variantNames(target.style, target.oneof).join(", ")} may be given (also got ${other})`);
        setBy.set(target.oneof, key);
        if (target.kind === "inlineEmpty") {
          const extra = Object.keys(expectObject(v, p))[0];
          if (extra !== undefined) fail(joinKey(p, extra), "unknown field");
        } else {
          msg[target.oneof.localName] = { case: target.field.localName, value: decodeVariantBody(desc, target.field, target.variant, v, p, daml, obj) };
        }
        break;
      }
    }
  }
  return msg as unknown as Message;
}

function variantNames(style: OneofStyle, oneof: DescOneof): string[] {
  const names = oneof.fields.map((f) => variantOf(style, f).name);
  return style.empty ? [...names, style.empty] : names;
}

function decodeNestedOneof(
  desc: DescMessage,
  oneof: DescOneof,
  style: OneofStyle,
  v: unknown,
  path: string,
  daml: DamlValueCodec,
  parent: JsonObject,
): { case: string; value: unknown } | undefined {
  const o = expectObject(v, path);
  const keys = Object.keys(o);
  const names = variantNames(style, oneof);
  if (keys.length !== 1) {
    fail(path, `expected exactly one of ${names.join(", ")}, got ${keys.length === 0 ? "none" : keys.join(", ")}`);
  }
  const name = keys[0];
  const body = o[name];
  const p = joinKey(path, name);
  if (style.empty !== undefined && name === style.empty) {
    const extra = body === null ? undefined : Object.keys(expectObject(body, p))[0];
    if (extra !== undefined) fail(joinKey(p, extra), "unknown field");
    return undefined;
  }
  const field = oneof.fields.find((f) => variantOf(style, f).name === name);
  if (!field) fail(p, `unknown variant; expected one of ${names.join(", ")}`);
  return { case: field.localName, value: decodeVariantBody(desc, field, variantOf(style, field), body, p, daml, parent) };
}

function decodeVariantBody(
  desc: DescMessage,
  field: DescField,
  variant: VariantStyle,
  body: unknown,
  path: string,
  daml: DamlValueCodec,
  parent: JsonObject,
): unknown {
  if (!variant.withValue) {
    if (body === null || body === undefined) fail(path, expected("an object", body));
    return decodeElem(desc, field, elemType(field), body, path, daml, parent);
  }
  const w = expectObject(body, path);
  for (const k of Object.keys(w)) if (k !== "value") fail(joinKey(path, k), "unknown field");
  const p = joinKey(path, "value");
  if (w.value === null || w.value === undefined) fail(p, "missing value");
  return decodeElem(desc, field, elemType(field), w.value, p, daml, parent);
}

function decodeField(desc: DescMessage, field: DescField, v: unknown, path: string, daml: DamlValueCodec, parent: JsonObject): unknown {
  const t = elemType(field);
  if (field.fieldKind === "list") {
    if (!Array.isArray(v)) fail(path, expected("an array", v));
    return v.map((e, i) => {
      const p = `${path}[${i}]`;
      if (e === null || e === undefined) fail(p, "null element");
      return decodeElem(desc, field, t, e, p, daml, parent);
    });
  }
  if (field.fieldKind === "map") {
    const o = expectObject(v, path);
    const out: JsonObject = {};
    for (const k of Object.keys(o)) {
      const p = `${path}[${JSON.stringify(k)}]`;
      const e = o[k];
      if (e === null || e === undefined) fail(p, "null map value");
      setKey(out, decodeMapKey(field.mapKey, k, p), decodeElem(desc, field, t, e, p, daml, parent));
    }
    return out;
  }
  return decodeElem(desc, field, t, v, path, daml, parent);
}

function decodeMapKey(t: ScalarType, k: string, path: string): string {
  switch (t) {
    case ScalarType.STRING:
      return k;
    case ScalarType.BOOL:
      if (k !== "true" && k !== "false") fail(path, "expected a boolean map key");
      return k;
    default:
      return String(decodeScalar(t, false, k, path));
  }
}

function decodeElem(desc: DescMessage, field: DescField, t: ElemType, v: unknown, path: string, daml: DamlValueCodec, parent: JsonObject): unknown {
  switch (t.kind) {
    case "scalar":
      return decodeScalar(t.scalar, t.longAsString, v, path);
    case "enum":
      return decodeEnum(t.enum, v, path);
    case "message":
      if (t.message.typeName === TYPE_VALUE || t.message.typeName === TYPE_RECORD) return decodeDaml(desc, field, t.message, v, path, daml, parent);
      return decodeMessage(t.message, v, path, daml);
  }
}

function decodeDaml(
  desc: DescMessage,
  field: DescField,
  target: DescMessage,
  v: unknown,
  path: string,
  daml: DamlValueCodec,
  parent: JsonObject,
): Value | ProtoRecord {
  let r: unknown;
  try {
    r = daml.decode(v, { message: desc, field, parent });
  } catch (e) {
    // A shape error of the codec is re-rooted at this field; anything else (e.g. a semantic
    // ledger error such as an unknown template) is the caller's and propagates unchanged.
    if (e instanceof CantonJsonError) {
      const full = e.path === "" ? path : e.path.startsWith("[") ? path + e.path : joinKey(path, e.path);
      throw new CantonJsonError(full, e.problem, { cause: e });
    }
    throw e;
  }
  if (target.typeName === TYPE_RECORD) {
    if (isMessage(r, RecordSchema)) return r;
    if (isMessage(r, ValueSchema) && r.sum.case === "record") return r.sum.value;
    fail(path, "expected a Daml record");
  }
  if (isMessage(r, ValueSchema)) return r;
  if (isMessage(r, RecordSchema)) return create(ValueSchema, { sum: { case: "record", value: r } });
  fail(path, "the Daml value codec returned neither a Value nor a Record");
}

function decodeEnum(e: DescEnum, v: unknown, path: string): number {
  if (typeof v === "string") {
    const hit = e.values.find((x) => x.name === v);
    if (!hit) fail(path, `unknown ${e.name} ${JSON.stringify(v)}; expected one of ${e.values.map((x) => x.name).join(", ")}`);
    return hit.number;
  }
  if (typeof v === "number" && Number.isInteger(v)) {
    if (!e.values.some((x) => x.number === v)) fail(path, `unknown ${e.name} number ${v}`);
    return v;
  }
  fail(path, expected(`a ${e.name} name`, v));
}

const INT_RE = /^-?\d+$/;
const INT32: [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];
const UINT32: [bigint, bigint] = [0n, 2n ** 32n - 1n];
const INT64: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const UINT64: [bigint, bigint] = [0n, 2n ** 64n - 1n];

function decodeInteger(v: unknown, [min, max]: [bigint, bigint], what: string, path: string): bigint {
  let n: bigint;
  if (typeof v === "number") {
    if (!Number.isInteger(v)) fail(path, expected(`an integer (${what})`, v));
    if (!Number.isSafeInteger(v)) fail(path, `${v} is beyond 2^53; send ${what} values this large as a decimal string`);
    n = BigInt(v);
  } else if (typeof v === "string" && INT_RE.test(v.trim())) {
    n = BigInt(v.trim());
  } else {
    fail(path, expected(`an integer (${what})`, v));
  }
  if (n < min || n > max) fail(path, `${n} is out of range for ${what}`);
  return n;
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64URL_RE = /^[A-Za-z0-9\-_]*={0,2}$/;

function decodeScalar(t: ScalarType, longAsString: boolean, v: unknown, path: string): unknown {
  switch (t) {
    case ScalarType.STRING:
      if (typeof v !== "string") fail(path, expected("a string", v));
      return v;
    case ScalarType.BOOL:
      if (typeof v !== "boolean") fail(path, expected("a boolean", v));
      return v;
    case ScalarType.BYTES: {
      if (typeof v !== "string") fail(path, expected("a base64 string", v));
      const ok = BASE64_RE.test(v) || (BASE64URL_RE.test(v) && v.replace(/=+$/, "").length % 4 !== 1);
      if (!ok) fail(path, "invalid base64");
      return new Uint8Array(Buffer.from(v, "base64"));
    }
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return Number(decodeInteger(v, INT32, "int32", path));
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return Number(decodeInteger(v, UINT32, "uint32", path));
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64: {
      const n = decodeInteger(v, INT64, "int64", path);
      return longAsString ? n.toString() : n;
    }
    case ScalarType.UINT64:
    case ScalarType.FIXED64: {
      const n = decodeInteger(v, UINT64, "uint64", path);
      return longAsString ? n.toString() : n;
    }
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE: {
      if (typeof v === "number") return v;
      if (typeof v === "string") {
        if (v === "NaN") return NaN;
        if (v === "Infinity") return Infinity;
        if (v === "-Infinity") return -Infinity;
        if (v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
      }
      fail(path, expected("a number", v));
    }
  }
}
