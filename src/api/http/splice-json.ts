/**
 * One descriptor-driven codec between protobuf-es messages of the `/v0` and registry APIs
 * (`ccwallet.wallet.v0`, `ccwallet.validator.v0`) and Splice's JSON dialect (the OpenAPI files in
 * reference/openapi). Generic rules, every message:
 * - the key of a field is its proto name (`receiver_party_id`), or its `(ccwallet.json.v0.json_key)`;
 * - a field is optional when declared proto3 `optional`; every other singular field is required
 *   (decode: missing or null is an error; encode: always printed). Repeated and map fields are
 *   always printed and may be left out of requests (empty);
 * - int64/int32 are JSON numbers (numbers only on input, no strings), bytes standard base64,
 *   enums the lower-cased value name without the enum prefix (`TRANSFER_KIND_DIRECT` -> `direct`),
 *   Struct/Value any JSON object/value, Timestamp an RFC 3339 string;
 * - a oneof is a discriminated union: the discriminator key is the oneof name, its value the
 *   variant field name, and the variant message's fields sit beside it in the same object
 *   (`{"status": "failed", "failure_kind": "expired"}`); with `(ccwallet.json.v0.untagged)` there is
 *   no discriminator and decoding picks the one variant whose keys the object carries.
 * Input is strict: unknown keys, wrong JSON types, unknown enum or discriminator values are
 * `SpliceJsonError`s naming the JSON path.
 */
import { create, getOption, hasOption, ScalarType, type DescField, type DescMessage, type DescOneof, type Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { json_key, untagged } from "../../../gen/ccwallet/json/v0/splice_json_pb.js";
import { decodeWellKnown, encodeWellKnown, isWellKnown } from "./splice-json-wkt.js";
import { expected, joinKey } from "./json-shape.js";

type JsonObject = { [key: string]: unknown };

/** A JSON shape error: `path` like `items[0].sender.amount`, `problem` what is wrong there. */
export class SpliceJsonError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path || "(root)"}: ${problem}`);
    this.name = "SpliceJsonError";
  }
}

/** proto -> Splice JSON (a plain object ready for `JSON.stringify`). */
export function toSpliceJson(schema: DescMessage, message: Message): JsonObject {
  if (message.$typeName !== schema.typeName) throw new TypeError(`toSpliceJson: expected a ${schema.typeName}, got a ${message.$typeName}`);
  return encodeMessage(schema, message);
}

/** Splice JSON -> proto. Throws `SpliceJsonError` on a shape error. */
export function fromSpliceJson<T extends Message>(schema: GenMessage<T>, json: unknown): T;
export function fromSpliceJson(schema: DescMessage, json: unknown): Message;
export function fromSpliceJson(schema: DescMessage, json: unknown): Message {
  return decodeObject(layoutOf(schema), expectObject(json, ""), "");
}

/** The JSON key of a field. */
export function spliceKeyOf(field: DescField): string {
  return hasOption(field, json_key) ? getOption(field, json_key) : field.name;
}

// ---------------------------------------------------------------------------------------------
// Layout: keys, required fields and the union of a message, derived once from its descriptor.

interface Variant {
  readonly tag: string;
  readonly field: DescField & { fieldKind: "message" };
  readonly layout: Layout;
}

interface Union {
  readonly oneof: DescOneof;
  /** The discriminator key; undefined for an untagged union. */
  readonly discriminator?: string;
  readonly variants: readonly Variant[];
}

interface Layout {
  readonly desc: DescMessage;
  /** Singular and repeated fields outside the union, by JSON key. */
  readonly fields: ReadonlyMap<string, DescField>;
  readonly union?: Union;
}

const layouts = new WeakMap<DescMessage, Layout>();

const isOptional = (f: DescField) => f.proto.proto3Optional === true;

function layoutOf(desc: DescMessage): Layout {
  let layout = layouts.get(desc);
  if (layout) return layout;
  const fields = new Map<string, DescField>();
  for (const f of desc.fields) {
    if (f.oneof) continue;
    const key = spliceKeyOf(f);
    if (fields.has(key)) throw new Error(`splice-json: duplicate key ${key} in ${desc.typeName}`);
    fields.set(key, f);
  }
  if (desc.oneofs.length > 1) throw new Error(`splice-json: ${desc.typeName} has more than one oneof`);
  const union = desc.oneofs.length === 1 ? unionOf(desc, desc.oneofs[0], fields) : undefined;
  layout = { desc, fields, union };
  layouts.set(desc, layout);
  return layout;
}

function unionOf(desc: DescMessage, oneof: DescOneof, fields: ReadonlyMap<string, DescField>): Union {
  const discriminator = hasOption(oneof, untagged) && getOption(oneof, untagged) ? undefined : oneof.name;
  if (discriminator !== undefined && fields.has(discriminator)) throw new Error(`splice-json: ${desc.typeName}.${discriminator} is both a field and a discriminator`);
  const variants = oneof.fields.map((f): Variant => {
    if (f.fieldKind !== "message") throw new Error(`splice-json: variant ${desc.typeName}.${f.name} must be a message`);
    const layout = layoutOf(f.message);
    for (const key of keysOf(layout)) {
      if (fields.has(key) || key === discriminator) throw new Error(`splice-json: key ${key} of variant ${f.name} clashes in ${desc.typeName}`);
    }
    return { tag: f.name, field: f, layout };
  });
  return { oneof, discriminator, variants };
}

function keysOf(layout: Layout): string[] {
  const own = [...layout.fields.keys()];
  const u = layout.union;
  if (!u) return own;
  return [...own, ...(u.discriminator ? [u.discriminator] : []), ...u.variants.flatMap((v) => keysOf(v.layout))];
}

// ---------------------------------------------------------------------------------------------
// Encoding.

function encodeMessage(desc: DescMessage, msg: Message): JsonObject {
  const layout = layoutOf(desc);
  const m = msg as unknown as JsonObject;
  const out: JsonObject = {};
  if (layout.union) {
    const { oneof, discriminator, variants } = layout.union;
    const sel = m[oneof.localName] as { case: string | undefined; value?: Message };
    const variant = variants.find((v) => v.field.localName === sel.case);
    if (!variant || !sel.value) throw new TypeError(`toSpliceJson: ${desc.typeName}.${oneof.name} has no variant set`);
    if (discriminator) out[discriminator] = variant.tag;
    Object.assign(out, encodeMessage(variant.field.message, sel.value));
  }
  for (const [key, f] of layout.fields) {
    const v = m[f.localName];
    if (f.fieldKind === "list") out[key] = (v as unknown[]).map((e, i) => encodeElem(f, e, `${key}[${i}]`));
    else if (f.fieldKind === "map") out[key] = Object.fromEntries(Object.entries(v as JsonObject).map(([k, e]) => [k, encodeElem(f, e, key)]));
    else if (v !== undefined) out[key] = encodeElem(f, v, key);
    else if (!isOptional(f) && f.fieldKind === "message") out[key] = f.message.typeName === "google.protobuf.Struct" ? {} : encodeElem(f, create(f.message), key);
  }
  return out;
}

function encodeElem(f: DescField, v: unknown, path: string): unknown {
  const t = elemOf(f);
  switch (t.kind) {
    case "message":
      return isWellKnown(t.message) ? encodeWellKnown(t.message, v) : encodeMessage(t.message, v as Message);
    case "enum": {
      const value = t.enum.values.find((x) => x.number === v);
      if (!value) throw new TypeError(`toSpliceJson: ${path}: ${String(v)} is not a ${t.enum.typeName}`);
      return value.localName.toLowerCase();
    }
    case "scalar":
      return encodeScalar(t.scalar, v, path);
  }
}

function encodeScalar(t: ScalarType, v: unknown, path: string): unknown {
  switch (t) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64: {
      const n = Number(v as bigint | string);
      // A JSON number beyond 2^53 would silently lose digits in most clients: refuse to print it.
      if (!Number.isSafeInteger(n)) throw new TypeError(`toSpliceJson: ${path}: ${String(v)} is not a safe JSON integer`);
      return n;
    }
    case ScalarType.BYTES:
      return Buffer.from(v as Uint8Array).toString("base64");
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      if (!Number.isFinite(v)) throw new TypeError(`toSpliceJson: ${path}: ${String(v)} is not a JSON number`);
      return v;
    default:
      return v;
  }
}

type Elem =
  | { kind: "scalar"; scalar: ScalarType }
  | { kind: "enum"; enum: NonNullable<DescField["enum"]> }
  | { kind: "message"; message: DescMessage };

function elemOf(f: DescField): Elem {
  switch (f.fieldKind) {
    case "scalar":
      return { kind: "scalar", scalar: f.scalar };
    case "enum":
      return { kind: "enum", enum: f.enum };
    case "message":
      return { kind: "message", message: f.message };
    case "list":
      if (f.listKind === "scalar") return { kind: "scalar", scalar: f.scalar };
      return f.listKind === "enum" ? { kind: "enum", enum: f.enum } : { kind: "message", message: f.message };
    case "map":
      if (f.mapKind === "scalar") return { kind: "scalar", scalar: f.scalar };
      return f.mapKind === "enum" ? { kind: "enum", enum: f.enum } : { kind: "message", message: f.message };
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding.

function fail(path: string, problem: string): never {
  throw new SpliceJsonError(path, problem);
}

function expectObject(v: unknown, path: string): JsonObject {
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(path, expected("an object", v));
  return v as JsonObject;
}

function decodeMessage(desc: DescMessage, json: unknown, path: string): unknown {
  if (isWellKnown(desc)) return decodeWellKnown(desc, json, path, fail);
  return decodeObject(layoutOf(desc), expectObject(json, path), path);
}

/** Decodes the keys of `obj` that belong to `layout` (a message, or a variant flattened into its parent). */
function decodeObject(layout: Layout, obj: JsonObject, path: string): Message {
  const msg = create(layout.desc) as unknown as JsonObject;
  const rest: JsonObject = {};
  for (const key of Object.keys(obj)) {
    const f = layout.fields.get(key);
    if (f) msg[f.localName] = decodeField(f, obj[key], joinKey(path, key));
    else rest[key] = obj[key];
  }
  for (const [key, f] of layout.fields) {
    if (f.fieldKind === "list" || f.fieldKind === "map" || isOptional(f)) continue;
    if (!(key in obj)) fail(joinKey(path, key), "missing required field");
  }
  if (layout.union) {
    const { variant, keys } = pickVariant(layout.union, rest, path);
    msg[layout.union.oneof.localName] = { case: variant.field.localName, value: decodeObject(variant.layout, keys, path) };
  } else {
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) fail(joinKey(path, unknown), "unknown field");
  }
  return msg as unknown as Message;
}

function pickVariant(union: Union, rest: JsonObject, path: string): { variant: Variant; keys: JsonObject } {
  const tags = union.variants.map((v) => v.tag);
  if (union.discriminator) {
    const d = union.discriminator;
    const p = joinKey(path, d);
    const tag = rest[d];
    if (tag === undefined) fail(p, `missing discriminator; expected one of ${tags.join(", ")}`);
    if (typeof tag !== "string") fail(p, expected("a string", tag));
    const variant = union.variants.find((v) => v.tag === tag);
    if (!variant) fail(p, `unknown value ${JSON.stringify(tag)}; expected one of ${tags.join(", ")}`);
    const { [d]: _, ...keys } = rest;
    for (const key of Object.keys(keys)) if (!keysOf(variant.layout).includes(key)) fail(joinKey(path, key), `unknown field for ${d} ${JSON.stringify(tag)}`);
    return { variant, keys };
  }
  // Untagged: the variant that has every given key and misses none of its own required ones.
  const given = Object.keys(rest);
  const fits = union.variants.filter((v) => {
    const keys = keysOf(v.layout);
    const required = [...v.layout.fields].filter(([, f]) => !isOptional(f)).map(([k]) => k);
    return given.every((k) => keys.includes(k)) && required.every((k) => k in rest);
  });
  if (fits.length !== 1) {
    fail(path, `expected the keys of exactly one of ${tags.join(", ")}, got ${given.length ? given.join(", ") : "none"}`);
  }
  return { variant: fits[0], keys: rest };
}

function decodeField(f: DescField, v: unknown, path: string): unknown {
  if (v === null && isOptional(f)) return undefined;
  if (f.fieldKind === "list") {
    if (!Array.isArray(v)) fail(path, expected("an array", v));
    return v.map((e, i) => decodeElem(f, e, `${path}[${i}]`));
  }
  if (f.fieldKind === "map") {
    const o = expectObject(v, path);
    return Object.fromEntries(Object.keys(o).map((k) => [k, decodeElem(f, o[k], `${path}[${JSON.stringify(k)}]`)]));
  }
  return decodeElem(f, v, path);
}

function decodeElem(f: DescField, v: unknown, path: string): unknown {
  const t = elemOf(f);
  switch (t.kind) {
    case "message":
      return decodeMessage(t.message, v, path);
    case "enum": {
      const names = t.enum.values.filter((x) => x.number !== 0).map((x) => x.localName.toLowerCase());
      if (typeof v !== "string") fail(path, expected(`one of ${names.join(", ")}`, v));
      const hit = t.enum.values.find((x) => x.number !== 0 && x.localName.toLowerCase() === v);
      if (!hit) fail(path, `unknown value ${JSON.stringify(v)}; expected one of ${names.join(", ")}`);
      return hit.number;
    }
    case "scalar":
      return decodeScalar(t.scalar, v, path);
  }
}

const INT32: [number, number] = [-(2 ** 31), 2 ** 31 - 1];
const UINT32: [number, number] = [0, 2 ** 32 - 1];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decodeInteger(v: unknown, path: string, what: string): number {
  if (typeof v !== "number" || !Number.isInteger(v)) fail(path, expected(`an integer (${what})`, v));
  if (!Number.isSafeInteger(v)) fail(path, `${v} is beyond the exactly representable JSON integers (2^53)`);
  return v;
}

function decodeScalar(t: ScalarType, v: unknown, path: string): unknown {
  switch (t) {
    case ScalarType.STRING:
      if (typeof v !== "string") fail(path, expected("a string", v));
      return v;
    case ScalarType.BOOL:
      if (typeof v !== "boolean") fail(path, expected("a boolean", v));
      return v;
    case ScalarType.BYTES:
      if (typeof v !== "string" || !BASE64.test(v)) fail(path, expected("a base64 string", v));
      return new Uint8Array(Buffer.from(v, "base64"));
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
    case ScalarType.UINT32:
    case ScalarType.FIXED32: {
      const n = decodeInteger(v, path, "int32");
      const [min, max] = t === ScalarType.UINT32 || t === ScalarType.FIXED32 ? UINT32 : INT32;
      if (n < min || n > max) fail(path, `${n} is out of range`);
      return n;
    }
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64: {
      const n = decodeInteger(v, path, "int64");
      if (n < 0 && (t === ScalarType.UINT64 || t === ScalarType.FIXED64)) fail(path, `${n} is out of range`);
      return BigInt(n);
    }
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      if (typeof v !== "number") fail(path, expected("a number", v));
      return v;
  }
}
