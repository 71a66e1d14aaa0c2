/**
 * Just enough protobuf to write and read Canton's topology transactions byte for byte, in field
 * order and with proto3's omission of defaults, as Canton serializes them. The domain stays free
 * of a protobuf runtime; these messages are small and fixed.
 */
import { concatBytes } from "./canton-hash.js";

function varint(n: number | bigint): Uint8Array {
  let v = BigInt(n);
  if (v < 0n) v = BigInt.asUintN(64, v);
  const out: number[] = [];
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

const tag = (field: number, wireType: 0 | 2) => varint((field << 3) | wireType);
const utf8 = (s: string) => new TextEncoder().encode(s);

/** One field of a message being written; `undefined` for a default value that proto3 omits. */
export type Field = Uint8Array | undefined;

export const pb = {
  /** A varint field (int32, uint32, enum, bool); zero is omitted. */
  varint: (field: number, n: number): Field => (n === 0 ? undefined : concatBytes(tag(field, 0), varint(n))),
  bytes: (field: number, b: Uint8Array): Field => (b.length === 0 ? undefined : concatBytes(tag(field, 2), varint(b.length), b)),
  string: (field: number, s: string): Field => pb.bytes(field, utf8(s)),
  /** A message field: present even when empty (an empty `can_sign_all_mappings {}` means something). */
  message: (field: number, body: Uint8Array): Field => concatBytes(tag(field, 2), varint(body.length), body),
  packedVarints: (field: number, ns: readonly number[]): Field => (ns.length === 0 ? undefined : pb.bytes(field, concatBytes(...ns.map(varint)))),
  /** The message whose fields are these, in the order given (callers list them by field number). */
  encode: (...fields: Field[]): Uint8Array => concatBytes(...fields.filter((f): f is Uint8Array => f !== undefined)),
};

/** One field read from the wire: varints as bigint, length-delimited fields as bytes. */
export type WireField = { readonly field: number; readonly varint: bigint } | { readonly field: number; readonly bytes: Uint8Array };

export class MalformedProto extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedProto";
  }
}

/** The fields of a message in wire order; only varint and length-delimited wire types are expected. */
export function readFields(b: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  const readVarint = (): bigint => {
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (at >= b.length) throw new MalformedProto("truncated varint");
      const byte = b[at++];
      v |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return v;
    }
    throw new MalformedProto("varint longer than 10 bytes");
  };
  while (at < b.length) {
    const key = readVarint();
    const field = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (field === 0) throw new MalformedProto("field number 0");
    if (wireType === 0) fields.push({ field, varint: readVarint() });
    else if (wireType === 2) {
      const len = Number(readVarint());
      if (at + len > b.length) throw new MalformedProto("truncated length-delimited field");
      fields.push({ field, bytes: b.subarray(at, at + len) });
      at += len;
    } else throw new MalformedProto(`unexpected wire type ${wireType} of field ${field}`);
  }
  return fields;
}
