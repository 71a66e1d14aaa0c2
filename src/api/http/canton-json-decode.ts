/**
 * Canton JSON -> proto, strict about shape: unknown keys, wrong JSON types, bad enum names and
 * malformed scalars are `CantonJsonError`s carrying the JSON path; `null` means "unset"; missing
 * fields take their proto defaults. Daml values go through the caller's `DamlValueCodec`.
 */
import { create, isMessage, type DescField, type DescMessage, type DescOneof, type Message } from "@bufbuild/protobuf";
import { type Record as ProtoRecord, RecordSchema, type Value, ValueSchema } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { setKey } from "../convert/canton-json-daml.js";
import { CantonJsonError, expectObject, fail, type JsonObject } from "./canton-json-error.js";
import { elemType, layoutOf, variantNames, variantOf, type ElemType } from "./canton-json-layout.js";
import { decodeEnum, decodeMapKey, decodeScalar } from "./canton-json-scalars.js";
import { SPECIAL_MESSAGES } from "./canton-json-special.js";
import { type OneofStyle, TYPE_RECORD, TYPE_VALUE, type VariantStyle } from "./canton-json-tables.js";
import { expected, joinKey } from "./json-shape.js";

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

export function decodeMessage(desc: DescMessage, json: unknown, path: string, daml: DamlValueCodec): Message {
  const special = SPECIAL_MESSAGES[desc.typeName];
  if (special) return special.decode(json, path);
  const obj = expectObject(json, path);
  const layout = layoutOf(desc);
  const msg = create(desc) as unknown as JsonObject;
  // Which key set each inline oneof, made on the first one (most messages have none).
  let setBy: Map<DescOneof, string> | undefined;
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
        const other = setBy?.get(target.oneof);
        if (other !== undefined) fail(p, `only one of ${variantNames(target.style, target.oneof).join(", ")} may be given (also got ${other})`);
        (setBy ??= new Map()).set(target.oneof, key);
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
