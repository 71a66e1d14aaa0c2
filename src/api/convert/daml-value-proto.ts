/**
 * Daml values between protobuf `Value` and the engine's in-memory form, driven by the Daml type.
 * Input is checked against the type (wrong kinds, unknown record fields, bad numerics are
 * `ValueError`s with a path); output always carries record labels.
 */
import { create } from "@bufbuild/protobuf";
import {
  type Enum,
  type GenMap_Entry,
  type Identifier,
  type Optional,
  type Record as ProtoRecord,
  type RecordField,
  type TextMap_Entry,
  type Value,
  ValueSchema,
  type Variant,
} from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import type { DamlType, RecordT, TypeRef } from "../../ledger/daml-type.js";
import { checkDate, checkInt64, checkNesting, MAX_TEXT_LENGTH, resolve, ValueError } from "../../ledger/daml-type.js";
import { packageIdOf } from "../../ledger/registry.js";
import { Numeric } from "../../ledger/numeric.js";

const DAY_MS = 86_400_000;

function fail(path: string, expected: string, got: Value["sum"]["case"]): never {
  throw new ValueError(path, `expected ${expected}, got ${got ?? "an empty value"}`);
}

/** An Optional None (`optional` with no value): the only extra record field a downgrade may drop. */
function isNone(v: Value | undefined): boolean {
  return v?.sum.case === "optional" && v.sum.value.value === undefined;
}

/** The Values directly inside `v` (one Daml nesting level down). */
function childrenOf(v: Value): (Value | undefined)[] {
  const s = v.sum;
  switch (s.case) {
    case "record":
      return s.value.fields.map((f) => f.value);
    case "list":
      return s.value.elements;
    case "optional":
    case "variant":
      return [s.value.value];
    case "textMap":
      return s.value.entries.map((e) => e.value);
    case "genMap":
      return s.value.entries.flatMap((e) => [e.key, e.value]);
    default:
      return [];
  }
}

/**
 * Refuses a value nested past Canton's limit before the typed decoder sees it, walking without
 * recursion, so the answer is the nesting error whatever the declared type.
 */
function checkProtoNesting(values: readonly (Value | undefined)[], path: string): void {
  const stack: [Value, number][] = values.filter((v): v is Value => v !== undefined).map((v) => [v, 0]);
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    checkNesting(depth, path);
    for (const c of childrenOf(v)) if (c) stack.push([c, depth + 1]);
  }
}

export function identifierOf(ref: TypeRef | undefined): Identifier | undefined {
  return ref && { $typeName: "com.daml.ledger.api.v2.Identifier", packageId: packageIdOf(ref.packageName, "0.1.0"), moduleName: ref.moduleName, entityName: ref.entityName };
}

/** Protobuf `Record` (labelled or positional) -> in-memory record of `type`. */
export function recordFromProto(type: RecordT<unknown>, record: ProtoRecord, path = "", depth = 0): Record<string, unknown> {
  if (depth === 0) checkProtoNesting(record.fields.map((f) => f.value), path);
  checkNesting(depth, path);
  const labelled = record.fields.some((f) => f.label !== "");
  const out: Record<string, unknown> = {};
  if (labelled) {
    const byLabel = new Map(record.fields.map((f) => [f.label, f.value]));
    for (const [name, fty] of type.fields) {
      const v = byLabel.get(name);
      const p = path ? `${path}.${name}` : name;
      if (v === undefined && !byLabel.has(name)) {
        if (resolve(fty).kind !== "optional") throw new ValueError(p, "missing field");
        out[name] = null;
      } else {
        out[name] = valueFromProto(fty, v ?? create(ValueSchema), p, depth + 1);
      }
      byLabel.delete(name);
    }
    // Daml-LF's upgrade rule: extra fields are dropped when they are None (see fromDamlJson).
    const extra = [...byLabel.entries()].filter(([, v]) => !isNone(v)).map(([label]) => label);
    if (extra.length > 0) throw new ValueError(path ? `${path}.${extra[0]}` : extra[0], "unknown field");
  } else {
    if (record.fields.length !== type.fields.length) {
      throw new ValueError(path, `expected ${type.fields.length} fields, got ${record.fields.length}`);
    }
    type.fields.forEach(([name, fty], i) => {
      out[name] = valueFromProto(fty, record.fields[i].value ?? create(ValueSchema), path ? `${path}.${name}` : name, depth + 1);
    });
  }
  return out;
}

export function valueFromProto(type: DamlType, value: Value, path = "", depth = 0): unknown {
  if (depth === 0) checkProtoNesting([value], path);
  checkNesting(depth, path);
  const ty = resolve(type);
  const s = value.sum;
  switch (ty.kind) {
    case "unit":
      if (s.case !== "unit" && !(s.case === "record" && s.value.fields.length === 0)) fail(path, "unit", s.case);
      return {};
    case "bool":
      if (s.case !== "bool") fail(path, "bool", s.case);
      return s.value;
    case "int64":
      if (s.case !== "int64") fail(path, "int64", s.case);
      return checkInt64(s.value, path);
    case "numeric":
      if (s.case !== "numeric") fail(path, "numeric", s.case);
      try {
        return Numeric.parse(s.value);
      } catch (e) {
        throw new ValueError(path, (e as Error).message);
      }
    case "text":
      if (s.case !== "text") fail(path, "text", s.case);
      if (s.value.length > MAX_TEXT_LENGTH) throw new ValueError(path, `Text of ${s.value.length} characters exceeds the limit of ${MAX_TEXT_LENGTH}`);
      return s.value;
    case "party":
      if (s.case !== "party" || !/^[A-Za-z0-9:\-_ ]{1,255}$/.test(s.value)) fail(path, "party", s.case);
      return s.value;
    case "contractId":
      if (s.case !== "contractId" || !/^[0-9a-f]{2,512}$/.test(s.value)) fail(path, "contract_id", s.case);
      return s.value;
    case "date": {
      if (s.case !== "date") fail(path, "date", s.case);
      return checkDate(new Date(s.value * DAY_MS).toISOString().slice(0, 10), path);
    }
    case "time":
      if (s.case !== "timestamp") fail(path, "timestamp", s.case);
      return s.value;
    case "optional":
      if (s.case !== "optional") fail(path, "optional", s.case);
      return s.value.value ? valueFromProto(ty.of, s.value.value, path, depth + 1) : null;
    case "list":
      if (s.case !== "list") fail(path, "list", s.case);
      return s.value.elements.map((e, i) => valueFromProto(ty.of, e, `${path}[${i}]`, depth + 1));
    case "textMap": {
      if (s.case !== "textMap") fail(path, "text_map", s.case);
      const m = new Map<string, unknown>();
      for (const e of s.value.entries) m.set(e.key, valueFromProto(ty.of, e.value ?? create(ValueSchema), `${path}.${e.key}`, depth + 1));
      return m;
    }
    case "genMap":
      if (s.case !== "genMap") fail(path, "gen_map", s.case);
      return s.value.entries.map((e, i) => [
        valueFromProto(ty.key, e.key ?? create(ValueSchema), `${path}[${i}].key`, depth + 1),
        valueFromProto(ty.value, e.value ?? create(ValueSchema), `${path}[${i}].value`, depth + 1),
      ]);
    case "record":
      if (s.case !== "record") fail(path, "record", s.case);
      return recordFromProto(ty, s.value, path, depth);
    case "variant": {
      if (s.case !== "variant") fail(path, "variant", s.case);
      const ctor = ty.ctors[s.value.constructor$];
      if (!ctor) throw new ValueError(path, `unknown constructor ${s.value.constructor$}`);
      return { tag: s.value.constructor$, value: valueFromProto(ctor, s.value.value ?? create(ValueSchema), `${path}.${s.value.constructor$}`, depth + 1) };
    }
    case "enum":
      if (s.case !== "enum" || !ty.ctors.includes(s.value.constructor$)) fail(path, `enum ${ty.ctors.join("|")}`, s.case);
      return s.value.constructor$;
  }
}

/**
 * Output messages are written as literals of their generated types rather than through
 * protobuf-es's `create`, which visits the schema of every nested message by reflection: a
 * prepared transaction's values cost its prepare more in `create` than in everything else they go
 * through. A literal is the same object (`create` sets each field's default and leaves an unset
 * message field out); a test holds the two equal through a binary round trip.
 */
export function recordToProto(type: RecordT<unknown>, value: Record<string, unknown>): ProtoRecord {
  const fields = type.fields.map(([label, fty]): RecordField => ({ $typeName: "com.daml.ledger.api.v2.RecordField", label, value: valueToProto(fty, value[label]) }));
  const recordId = identifierOf(type.ref);
  return recordId ? { $typeName: "com.daml.ledger.api.v2.Record", recordId, fields } : { $typeName: "com.daml.ledger.api.v2.Record", fields };
}

/** A module function, not a closure per call: tsx's keepNames names each closure as it is made. */
function valueOfSum(sum: Value["sum"]): Value {
  return { $typeName: "com.daml.ledger.api.v2.Value", sum };
}

// An unset message field is left out of its literal, as `create` leaves it out.
function optionalOf(value: Value | undefined): Optional {
  return value ? { $typeName: "com.daml.ledger.api.v2.Optional", value } : { $typeName: "com.daml.ledger.api.v2.Optional" };
}

function variantOf(variantId: Identifier | undefined, constructor$: string, value: Value): Variant {
  return variantId
    ? { $typeName: "com.daml.ledger.api.v2.Variant", variantId, constructor$, value }
    : { $typeName: "com.daml.ledger.api.v2.Variant", constructor$, value };
}

function enumOf(enumId: Identifier | undefined, constructor$: string): Enum {
  return enumId ? { $typeName: "com.daml.ledger.api.v2.Enum", enumId, constructor$ } : { $typeName: "com.daml.ledger.api.v2.Enum", constructor$ };
}

export function valueToProto(type: DamlType, value: unknown): Value {
  const ty = resolve(type);
  switch (ty.kind) {
    case "unit":
      return valueOfSum({ case: "unit", value: { $typeName: "google.protobuf.Empty" } });
    case "bool":
      return valueOfSum({ case: "bool", value: value as boolean });
    case "int64":
      return valueOfSum({ case: "int64", value: value as bigint });
    case "numeric":
      return valueOfSum({ case: "numeric", value: (value as Numeric).toString() });
    case "text":
      return valueOfSum({ case: "text", value: value as string });
    case "party":
      return valueOfSum({ case: "party", value: value as string });
    case "contractId":
      return valueOfSum({ case: "contractId", value: value as string });
    case "date":
      return valueOfSum({ case: "date", value: Math.round(Date.parse(`${value as string}T00:00:00Z`) / DAY_MS) });
    case "time":
      return valueOfSum({ case: "timestamp", value: value as bigint });
    case "optional":
      return valueOfSum({ case: "optional", value: optionalOf(value === null || value === undefined ? undefined : valueToProto(ty.of, value)) });
    case "list":
      return valueOfSum({ case: "list", value: { $typeName: "com.daml.ledger.api.v2.List", elements: (value as unknown[]).map((e) => valueToProto(ty.of, e)) } });
    case "textMap":
      return valueOfSum({
        case: "textMap",
        value: {
          $typeName: "com.daml.ledger.api.v2.TextMap",
          entries: [...(value as Map<string, unknown>)].map(([key, e]): TextMap_Entry => ({ $typeName: "com.daml.ledger.api.v2.TextMap.Entry", key, value: valueToProto(ty.of, e) })),
        },
      });
    case "genMap":
      return valueOfSum({
        case: "genMap",
        value: {
          $typeName: "com.daml.ledger.api.v2.GenMap",
          entries: (value as [unknown, unknown][]).map(([k, e]): GenMap_Entry => ({
            $typeName: "com.daml.ledger.api.v2.GenMap.Entry",
            key: valueToProto(ty.key, k),
            value: valueToProto(ty.value, e),
          })),
        },
      });
    case "record":
      return valueOfSum({ case: "record", value: recordToProto(ty, value as Record<string, unknown>) });
    case "variant": {
      const vv = value as { tag: string; value: unknown };
      return valueOfSum({ case: "variant", value: variantOf(identifierOf(ty.ref), vv.tag, valueToProto(ty.ctors[vv.tag], vv.value)) });
    }
    case "enum":
      return valueOfSum({ case: "enum", value: enumOf(identifierOf(ty.ref), value as string) });
  }
}
