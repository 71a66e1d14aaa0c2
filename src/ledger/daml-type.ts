/**
 * Daml-LF types as data. A template declares its payload and choice arguments with these, and
 * one generic codec per wire format (Daml-LF JSON here, protobuf `Value` in `daml-proto.ts`)
 * walks the type to parse and print values. Parsing is where wrong input becomes a precise
 * `ValueError` with a path; inside the engine values are trusted.
 *
 * In-memory representation, by kind:
 *   unit {} | bool boolean | int64 bigint | numeric Numeric | text/party/contractId string
 *   date "YYYY-MM-DD" | time bigint (microseconds since epoch) | optional T | null
 *   list T[] | textMap Map<string,T> | genMap [K,V][] | record plain object
 *   variant { tag, value } | enum string
 */
import { Numeric } from "./numeric.js";

export interface TypeRef {
  readonly packageName: string;
  readonly moduleName: string;
  readonly entityName: string;
}

interface Base<V> {
  /** Phantom: the TypeScript type of values of this Daml type. */
  readonly __value?: V;
}
export interface UnitT extends Base<Record<string, never>> { readonly kind: "unit" }
export interface BoolT extends Base<boolean> { readonly kind: "bool" }
export interface Int64T extends Base<bigint> { readonly kind: "int64" }
export interface NumericT extends Base<Numeric> { readonly kind: "numeric"; readonly scale: number }
export interface TextT extends Base<string> { readonly kind: "text" }
export interface PartyT extends Base<string> { readonly kind: "party" }
export interface ContractIdT extends Base<string> { readonly kind: "contractId" }
export interface DateT extends Base<string> { readonly kind: "date" }
export interface TimeT extends Base<bigint> { readonly kind: "time" }
export interface OptionalT<V> extends Base<V | null> { readonly kind: "optional"; readonly of: DamlType }
export interface ListT<V> extends Base<V[]> { readonly kind: "list"; readonly of: DamlType }
export interface TextMapT<V> extends Base<Map<string, V>> { readonly kind: "textMap"; readonly of: DamlType }
export interface GenMapT<K, V> extends Base<[K, V][]> {
  readonly kind: "genMap";
  readonly key: DamlType;
  readonly value: DamlType;
}
export interface RecordT<V> extends Base<V> {
  readonly kind: "record";
  readonly ref?: TypeRef;
  readonly fields: readonly (readonly [string, DamlType])[];
}
export interface VariantT<V> extends Base<V> {
  readonly kind: "variant";
  readonly ref?: TypeRef;
  readonly ctors: Readonly<Record<string, DamlType>>;
}
export interface EnumT<V extends string> extends Base<V> {
  readonly kind: "enum";
  readonly ref?: TypeRef;
  readonly ctors: readonly V[];
}
export interface LazyT<V> extends Base<V> { readonly kind: "lazy"; readonly get: () => DamlType }

export type DamlType =
  | UnitT
  | BoolT
  | Int64T
  | NumericT
  | TextT
  | PartyT
  | ContractIdT
  | DateT
  | TimeT
  | OptionalT<unknown>
  | ListT<unknown>
  | TextMapT<unknown>
  | GenMapT<unknown, unknown>
  | RecordT<unknown>
  | VariantT<unknown>
  | EnumT<string>
  | LazyT<unknown>;

export type ValueOf<T> = T extends Base<infer V> ? V : never;
type Fields = Record<string, DamlType>;
type RecordValue<F extends Fields> = { [K in keyof F]: ValueOf<F[K]> };
type VariantValue<C extends Fields> = { [K in keyof C]: { tag: K; value: ValueOf<C[K]> } }[keyof C];

/** Constructors for Daml types, e.g. `t.record({ owner: t.party, amount: t.numeric() })`. */
export const t = {
  unit: { kind: "unit" } as UnitT,
  bool: { kind: "bool" } as BoolT,
  int64: { kind: "int64" } as Int64T,
  numeric: (scale = 10): NumericT => ({ kind: "numeric", scale }),
  text: { kind: "text" } as TextT,
  party: { kind: "party" } as PartyT,
  contractId: { kind: "contractId" } as ContractIdT,
  date: { kind: "date" } as DateT,
  time: { kind: "time" } as TimeT,
  optional: <T extends DamlType>(of: T): OptionalT<ValueOf<T>> => {
    if (of.kind === "optional") throw new Error("nested Optional is not supported by this engine");
    return { kind: "optional", of };
  },
  list: <T extends DamlType>(of: T): ListT<ValueOf<T>> => ({ kind: "list", of }),
  textMap: <T extends DamlType>(of: T): TextMapT<ValueOf<T>> => ({ kind: "textMap", of }),
  genMap: <K extends DamlType, V extends DamlType>(key: K, value: V): GenMapT<ValueOf<K>, ValueOf<V>> => ({
    kind: "genMap",
    key,
    value,
  }),
  record: <F extends Fields>(fields: F, ref?: TypeRef): RecordT<RecordValue<F>> => ({
    kind: "record",
    ref,
    fields: Object.entries(fields),
  }),
  variant: <C extends Fields>(ctors: C, ref?: TypeRef): VariantT<VariantValue<C>> => ({
    kind: "variant",
    ref,
    ctors,
  }),
  enum: <V extends string>(ctors: readonly V[], ref?: TypeRef): EnumT<V> => ({ kind: "enum", ref, ctors }),
  lazy: <V>(get: () => DamlType): LazyT<V> => ({ kind: "lazy", get }),
};

/** A value that does not match its declared Daml type. `path` points into the input. */
export class ValueError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path || "value"}: ${problem}`);
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function resolve(type: DamlType): Exclude<DamlType, LazyT<unknown>> {
  return type.kind === "lazy" ? resolve(type.get()) : type;
}

export function checkInt64(v: bigint, path: string): bigint {
  if (v < INT64_MIN || v > INT64_MAX) throw new ValueError(path, "Int64 out of range");
  return v;
}

export function checkDate(s: string, path: string): string {
  const m = DATE.exec(s);
  if (!m || Number.isNaN(Date.parse(`${s}T00:00:00Z`)) || new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) !== s) {
    throw new ValueError(path, `not a date (YYYY-MM-DD): ${JSON.stringify(s)}`);
  }
  return s;
}

/** Parses ISO-8601 with a zone into microseconds since the epoch, keeping sub-millisecond digits. */
export function parseIsoMicros(s: string, path = ""): bigint {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(s);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new ValueError(path, `not an ISO-8601 timestamp: ${JSON.stringify(s)}`);
  const fraction = (m[2] ?? "").padEnd(6, "0").slice(0, 6);
  return BigInt(ms) * 1000n + BigInt(fraction);
}

/** Prints microseconds as ISO-8601 UTC with `Z`, with as many fractional digits as needed. */
export function formatIsoMicros(micros: bigint): string {
  const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const sub = Number(micros - ms * 1000n);
  const base = new Date(Number(ms)).toISOString(); // ...ss.mmmZ
  if (sub === 0) return base.endsWith(".000Z") ? base.replace(".000Z", "Z") : base;
  return base.replace("Z", String(sub).padStart(3, "0") + "Z");
}

/**
 * The longest Daml Text a submitted command may carry (UTF-16 code units). Canton bounds only the
 * whole message; a contract is stored and sent to every stakeholder on every read, so one field of
 * megabytes is refused up front. 64 Ki is far above any Splice text (descriptions are < 280).
 */
export const MAX_TEXT_LENGTH = 65_536;

/**
 * Daml-LF values nest at most 100 levels (Canton rejects deeper ones with INVALID_ARGUMENT). The
 * decoders count levels as they descend, so a hostile value is refused before it can exhaust the stack.
 */
export const MAX_VALUE_NESTING = 100;

/** A value nested deeper than MAX_VALUE_NESTING: INVALID_ARGUMENT, not a type error. */
export class NestingError extends ValueError {}

export function checkNesting(depth: number, path: string): void {
  if (depth >= MAX_VALUE_NESTING) throw new NestingError(path, `Provided value exceeds maximum nesting level of ${MAX_VALUE_NESTING}`);
}

/**
 * Refuses JSON nested more than twice the value limit (a Daml level is at most two JSON levels, a
 * Map entry's pair inside its array), walking it without recursion: the typed decoder then counts
 * exact Daml levels, and a value too deep for either is refused before anything recurses into it.
 */
function checkJsonNesting(json: unknown, path: string): void {
  const stack: [unknown, number][] = [[json, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > 2 * MAX_VALUE_NESTING) checkNesting(MAX_VALUE_NESTING + 1, path);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
}

function fail(path: string, expected: string, got: unknown): never {
  throw new ValueError(path, `expected ${expected}, got ${preview(got)}`);
}

/** At most 80 characters of a value, without walking it deeply (it may be nested arbitrarily). */
function preview(got: unknown): string {
  if (got === undefined) return "nothing";
  if (Array.isArray(got)) return got.length === 0 ? "[]" : "[...]";
  if (typeof got === "object" && got !== null) return "{...}";
  return String(JSON.stringify(got, (_k, v) => (typeof v === "bigint" ? String(v) : v))).slice(0, 80);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Daml-LF JSON -> in-memory value, checked against `type`. */
export function fromDamlJson(type: DamlType, json: unknown, path = "", depth = 0): unknown {
  if (depth === 0) checkJsonNesting(json, path);
  checkNesting(depth, path);
  const ty = resolve(type);
  const d = depth + 1;
  switch (ty.kind) {
    case "unit":
      if (!isObject(json)) fail(path, "{} (Unit)", json);
      return {};
    case "bool":
      if (typeof json !== "boolean") fail(path, "a boolean", json);
      return json;
    case "int64": {
      if (typeof json === "string" && /^-?\d{1,19}$/.test(json)) return checkInt64(BigInt(json), path);
      if (typeof json === "number" && Number.isSafeInteger(json)) return BigInt(json);
      return fail(path, "an Int64 (decimal string)", json);
    }
    case "numeric": {
      if (typeof json !== "string" && typeof json !== "number") fail(path, "a Numeric (decimal string)", json);
      try {
        return Numeric.parse(json);
      } catch (e) {
        throw new ValueError(path, (e as Error).message);
      }
    }
    case "text":
      if (typeof json !== "string") fail(path, "a string", json);
      return json;
    case "party":
      if (typeof json !== "string" || !/^[A-Za-z0-9:\-_ ]{1,255}$/.test(json)) fail(path, "a party id", json);
      return json;
    case "contractId":
      if (typeof json !== "string" || !/^[0-9a-f]{2,512}$/.test(json)) fail(path, "a contract id", json);
      return json;
    case "date":
      if (typeof json !== "string") fail(path, "a date string", json);
      return checkDate(json, path);
    case "time":
      if (typeof json !== "string") fail(path, "an ISO-8601 timestamp string", json);
      return parseIsoMicros(json, path);
    case "optional":
      return json === null || json === undefined ? null : fromDamlJson(ty.of, json, path, d);
    case "list":
      if (!Array.isArray(json)) fail(path, "a list (JSON array)", json);
      return json.map((v, i) => fromDamlJson(ty.of, v, `${path}[${i}]`, d));
    case "textMap": {
      if (!isObject(json)) fail(path, "a TextMap (JSON object)", json);
      const out = new Map<string, unknown>();
      for (const [k, v] of Object.entries(json)) out.set(k, fromDamlJson(ty.of, v, `${path}.${k}`, d));
      return out;
    }
    case "genMap": {
      if (!Array.isArray(json)) fail(path, "a Map (array of [key, value])", json);
      return json.map((entry, i) => {
        if (!Array.isArray(entry) || entry.length !== 2) fail(`${path}[${i}]`, "a [key, value] pair", entry);
        return [fromDamlJson(ty.key, entry[0], `${path}[${i}][0]`, d), fromDamlJson(ty.value, entry[1], `${path}[${i}][1]`, d)];
      });
    }
    case "record": {
      if (!isObject(json)) fail(path, "a record (JSON object)", json);
      const out: Record<string, unknown> = {};
      for (const [name, fty] of ty.fields) {
        const present = Object.prototype.hasOwnProperty.call(json, name);
        if (!present && resolve(fty).kind !== "optional") throw new ValueError(`${path}.${name}`, "missing field");
        out[name] = fromDamlJson(fty, json[name], path ? `${path}.${name}` : name, d);
      }
      // Daml-LF's upgrade rule: a value from a newer version of the package may carry fields this
      // version lacks, if they are None (null); downgrading drops them. Any other extra field is refused.
      for (const name of Object.keys(json)) {
        if (json[name] === null) continue;
        if (!ty.fields.some(([f]: readonly [string, DamlType]) => f === name)) throw new ValueError(path ? `${path}.${name}` : name, "unknown field");
      }
      return out;
    }
    case "variant": {
      if (!isObject(json) || typeof json.tag !== "string") fail(path, 'a variant {"tag", "value"}', json);
      const ctor = ty.ctors[json.tag];
      if (!ctor) throw new ValueError(`${path}.tag`, `unknown constructor ${JSON.stringify(json.tag)}`);
      return { tag: json.tag, value: fromDamlJson(ctor, json.value ?? {}, `${path}.value`, d) };
    }
    case "enum":
      if (typeof json !== "string" || !ty.ctors.includes(json)) fail(path, `one of ${ty.ctors.join("|")}`, json);
      return json;
  }
}

/** In-memory value -> Daml-LF JSON (labelled records, Int64 and Numeric as strings). */
export function toDamlJson(type: DamlType, value: unknown): unknown {
  const ty = resolve(type);
  switch (ty.kind) {
    case "unit":
      return {};
    case "bool":
    case "text":
    case "party":
    case "contractId":
    case "date":
    case "enum":
      return value;
    case "int64":
      return String(value);
    case "numeric":
      return (value as Numeric).toString();
    case "time":
      return formatIsoMicros(value as bigint);
    case "optional":
      return value === null || value === undefined ? null : toDamlJson(ty.of, value);
    case "list":
      return (value as unknown[]).map((v) => toDamlJson(ty.of, v));
    case "textMap": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of value as Map<string, unknown>) out[k] = toDamlJson(ty.of, v);
      return out;
    }
    case "genMap":
      return (value as [unknown, unknown][]).map(([k, v]) => [toDamlJson(ty.key, k), toDamlJson(ty.value, v)]);
    case "record": {
      const rec = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, fty] of ty.fields) out[name] = toDamlJson(fty, rec[name]);
      return out;
    }
    case "variant": {
      const v = value as { tag: string; value: unknown };
      return { tag: v.tag, value: toDamlJson(ty.ctors[v.tag], v.value) };
    }
  }
}
