/**
 * The value layer of hashing scheme V2 (reference §3.4): identifiers and Daml values with their
 * type tags, on a HashWriter (labels for the verbose trace are Canton's wording). The types are the
 * protobuf-es shapes of `com.daml.ledger.api.v2.Value`, structurally.
 */
import type { HashWriter } from "./hash-writer.js";

export interface Identifier {
  readonly packageId: string;
  readonly moduleName: string;
  readonly entityName: string;
}

export interface Value {
  readonly sum:
    | { readonly case: "unit"; readonly value: unknown }
    | { readonly case: "bool"; readonly value: boolean }
    | { readonly case: "int64"; readonly value: bigint }
    | { readonly case: "date"; readonly value: number }
    | { readonly case: "timestamp"; readonly value: bigint }
    | { readonly case: "numeric" | "party" | "text" | "contractId"; readonly value: string }
    | { readonly case: "optional"; readonly value: { readonly value?: Value } }
    | { readonly case: "list"; readonly value: { readonly elements: readonly Value[] } }
    | { readonly case: "textMap"; readonly value: { readonly entries: readonly { readonly key: string; readonly value?: Value }[] } }
    | { readonly case: "genMap"; readonly value: { readonly entries: readonly { readonly key?: Value; readonly value?: Value }[] } }
    | { readonly case: "record"; readonly value: { readonly recordId?: Identifier; readonly fields: readonly { readonly label: string; readonly value?: Value }[] } }
    | { readonly case: "variant"; readonly value: { readonly variantId?: Identifier; readonly constructor$: string; readonly value?: Value } }
    | { readonly case: "enum"; readonly value: { readonly enumId?: Identifier; readonly constructor$: string } }
    | { readonly case: undefined; readonly value?: undefined };
}

/** A prepared transaction V2 cannot hash; the API answers it INVALID_ARGUMENT. */
export class UnhashableTransaction extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnhashableTransaction";
  }
}

export const VALUE_TAG = {
  unit: 0x00, bool: 0x01, int64: 0x02, numeric: 0x03, timestamp: 0x04, date: 0x05, party: 0x06, text: 0x07,
  contractId: 0x08, optional: 0x09, list: 0x0a, textMap: 0x0b, record: 0x0c, variant: 0x0d, enum: 0x0e, genMap: 0x0f,
} as const;

export function required<T>(x: T | undefined, what: string): T {
  if (x === undefined) throw new UnhashableTransaction(`missing ${what}`);
  return x;
}

export function hexBytes(hex: string, what: string): Uint8Array {
  // Buffer.from stops at the first non-hex pair: a short result means the string was not hex.
  const b = Buffer.from(hex, "hex");
  if (hex.length % 2 !== 0 || b.length * 2 !== hex.length) throw new UnhashableTransaction(`${what} ${JSON.stringify(hex)} is not hex`);
  return b;
}

export function identifier(w: HashWriter, id: Identifier): void {
  w.string(id.packageId);
  w.list(id.moduleName.split("."), (s) => w.string(s));
  w.list(id.entityName.split("."), (s) => w.string(s));
}

export const strings = (w: HashWriter, xs: readonly string[]) => w.list(xs, (s) => w.string(s));

/** How a trace names each value's tag byte (Canton's wording). */
const TAG_LABEL: Record<keyof typeof VALUE_TAG, string> = {
  unit: "Unit Type Tag", bool: "Bool Type Tag", int64: "Int64 Type Tag", numeric: "Numeric Type Tag", timestamp: "Timestamp Type Tag",
  date: "Date Type Tag", party: "Party Type Tag", text: "Text Type Tag", contractId: "ContractId Type Tag", optional: "Optional Type Tag",
  list: "List Type Tag", textMap: "TextMap Type Tag", record: "Record Type Tag", variant: "Variant Type Tag", enum: "Enum Type Tag", genMap: "GenMap Type Tag",
};

export function value(w: HashWriter, v: Value): void {
  const s = v.sum;
  if (s.case === undefined) throw new UnhashableTransaction("a value without content");
  w.byte(VALUE_TAG[s.case], TAG_LABEL[s.case]);
  switch (s.case) {
    case "unit":
      return;
    case "bool":
      w.bool(s.value);
      return;
    case "int64":
    case "timestamp":
      w.int64(s.value);
      return;
    case "date":
      w.int32(s.value);
      return;
    case "numeric":
    case "party":
      w.string(s.value, s.case);
      return;
    case "text":
      w.string(s.value);
      return;
    case "contractId":
      w.bytes(hexBytes(s.value, "contract id"), "contractId");
      return;
    case "optional":
      w.optional(s.value.value, (x) => value(w, x));
      return;
    case "list":
      w.list(s.value.elements, (x) => value(w, x));
      return;
    case "textMap":
      w.list(s.value.entries, (e) => {
        w.string(e.key);
        value(w, required(e.value, "text map value"));
      });
      return;
    case "genMap":
      w.list(s.value.entries, (e) => {
        value(w, required(e.key, "gen map key"));
        value(w, required(e.value, "gen map value"));
      });
      return;
    case "record":
      w.optional(s.value.recordId, (id) => identifier(w, id));
      w.list(s.value.fields, (f) => {
        // Canton's decoder reads an empty label as no label.
        w.optional(f.label === "" ? undefined : f.label, (l) => w.string(l));
        value(w, required(f.value, `value of record field ${f.label}`));
      });
      return;
    case "variant":
      w.optional(s.value.variantId, (id) => identifier(w, id));
      w.string(s.value.constructor$);
      value(w, required(s.value.value, "variant value"));
      return;
    case "enum":
      w.optional(s.value.enumId, (id) => identifier(w, id));
      w.string(s.value.constructor$);
      return;
  }
}
