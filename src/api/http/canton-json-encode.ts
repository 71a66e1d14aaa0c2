/**
 * proto -> Canton JSON: every message by its layout (proto3 scalars, enums, repeated and map
 * fields always printed; message and `optional` fields only when set; oneofs by their style),
 * special types by their own codec, Daml values as Daml-LF JSON.
 */
import type { DescMessage, Message } from "@bufbuild/protobuf";
import type { Record as ProtoRecord, Value } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { protoRecordToDamlJson, protoValueToDamlJson, setKey } from "../convert/canton-json-daml.js";
import type { JsonObject } from "./canton-json-error.js";
import { elemType, layoutOf, variantOf, type ElemType, type Slot } from "./canton-json-layout.js";
import { encodeScalar } from "./canton-json-scalars.js";
import { SPECIAL_MESSAGES } from "./canton-json-special.js";
import { TYPE_RECORD, TYPE_VALUE } from "./canton-json-tables.js";

export function encodeMessage(desc: DescMessage, msg: Message): unknown {
  const special = SPECIAL_MESSAGES[desc.typeName];
  if (special) return special.encode(msg);
  if (desc.typeName === TYPE_VALUE) return protoValueToDamlJson(msg as Value);
  if (desc.typeName === TYPE_RECORD) return protoRecordToDamlJson(msg as ProtoRecord);
  const m = msg as unknown as JsonObject;
  const out: JsonObject = {};
  for (const slot of layoutOf(desc).slots) {
    if (slot.kind === "field") encodeField(slot, m, out);
    else encodeOneof(desc, slot, m, out);
  }
  return out;
}

function encodeField(slot: Extract<Slot, { kind: "field" }>, m: JsonObject, out: JsonObject): void {
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
}

function encodeOneof(desc: DescMessage, slot: Extract<Slot, { kind: "oneof" }>, m: JsonObject, out: JsonObject): void {
  const { oneof, style } = slot;
  const sel = m[oneof.localName] as { case: string | undefined; value?: unknown };
  let name: string;
  let body: unknown;
  if (sel.case === undefined) {
    if (style.empty === undefined) return;
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
