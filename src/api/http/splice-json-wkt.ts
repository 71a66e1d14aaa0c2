/**
 * Well-known types in Splice JSON: they print as in the protobuf JSON mapping (Struct = any JSON
 * object, Value = any JSON value, Timestamp = RFC 3339 string, Empty = `{}`), with the input type
 * checked first so a mistyped value gets the codec's path-naming error. A Struct field holds a
 * plain `JsonObject` in protobuf-es messages, so it passes through unchanged.
 */
import { fromJson, isMessage, toJson, type DescMessage, type JsonValue, type Message } from "@bufbuild/protobuf";
import { StructSchema } from "@bufbuild/protobuf/wkt";

const PREFIX = "google.protobuf.";

/** What JSON type each well-known type must arrive as (undefined: any). */
const INPUT_TYPES: { readonly [typeName: string]: "object" | "string" | "array" | undefined } = {
  "google.protobuf.Struct": "object",
  "google.protobuf.Empty": "object",
  "google.protobuf.Timestamp": "string",
  "google.protobuf.Duration": "string",
  "google.protobuf.ListValue": "array",
  "google.protobuf.Value": undefined,
};

export const isWellKnown = (desc: DescMessage): boolean => desc.typeName.startsWith(PREFIX);

export function encodeWellKnown(desc: DescMessage, value: unknown): unknown {
  if (desc.typeName === StructSchema.typeName && !isMessage(value)) return value;
  return toJson(desc, value as Message);
}

/** Returns the field value: a message, or for Struct the JSON object itself. */
export function decodeWellKnown(desc: DescMessage, json: unknown, path: string, fail: (path: string, problem: string) => never): unknown {
  if (!(desc.typeName in INPUT_TYPES)) throw new Error(`splice-json: ${desc.typeName} is not supported`);
  const want = INPUT_TYPES[desc.typeName];
  const got = json === null ? "null" : Array.isArray(json) ? "array" : typeof json;
  if (want !== undefined && got !== want) fail(path, `expected ${want === "array" ? "an array" : `a JSON ${want}`}, got ${got}`);
  if (desc.typeName === "google.protobuf.Empty" && Object.keys(json as object).length > 0) fail(path, "expected an empty object");
  if (desc.typeName === StructSchema.typeName) return json;
  try {
    return fromJson(desc, json as JsonValue);
  } catch (e) {
    fail(path, desc.typeName === "google.protobuf.Timestamp" ? `expected an RFC 3339 timestamp, got ${JSON.stringify(json)}` : (e as Error).message);
  }
}
