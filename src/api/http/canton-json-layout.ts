/**
 * Layout of the Canton JSON object of a message: which JSON key carries which field or oneof
 * (proto `json_name`s, `FIELD_RENAMES`, `ONEOF_STYLES`), derived once per descriptor and cached.
 */
import { ScalarType, type DescEnum, type DescField, type DescMessage, type DescOneof } from "@bufbuild/protobuf";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import { FIELD_RENAMES, ONEOF_STYLES, type OneofStyle, type VariantStyle } from "./canton-json-tables.js";

export type Slot = { kind: "field"; field: DescField; key: string } | { kind: "oneof"; oneof: DescOneof; style: OneofStyle; key: string };

export type KeyTarget =
  | { kind: "field"; field: DescField }
  | { kind: "nested"; oneof: DescOneof; style: OneofStyle }
  | { kind: "inline"; oneof: DescOneof; style: OneofStyle; field: DescField; variant: VariantStyle }
  | { kind: "inlineEmpty"; oneof: DescOneof; style: OneofStyle };

export interface Layout {
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

export function variantOf(style: OneofStyle, field: DescField): VariantStyle {
  return style.variants[field.name] ?? { name: pascal(field.name), withValue: true };
}

export function layoutOf(desc: DescMessage): Layout {
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

export type ElemType = { kind: "scalar"; scalar: ScalarType; longAsString: boolean } | { kind: "enum"; enum: DescEnum } | { kind: "message"; message: DescMessage };

export function elemType(f: DescField): ElemType {
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

/** Every variant key the oneof accepts, for error messages. */
export function variantNames(style: OneofStyle, oneof: DescOneof): string[] {
  const names = oneof.fields.map((f) => variantOf(style, f).name);
  return style.empty ? [...names, style.empty] : names;
}
