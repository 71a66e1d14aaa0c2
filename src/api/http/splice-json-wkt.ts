/**
 * Well-known types in Splice JSON: they print as in the protobuf JSON mapping (Struct = any JSON
 * object, Value = any JSON value, Timestamp = RFC 3339 string, Empty = `{}`), with the input type
 * checked first so a mistyped value gets the codec's path-naming error.
 */
import { fromJson, toJson, type DescMessage, type JsonValue, type Message } from "@bufbuild/protobuf";

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

export function encodeWellKnown(desc: DescMessage, msg: Message): unknown {
  return toJson(desc, msg);
}

export function decodeWellKnown(desc: DescMessage, json: unknown, path: string, fail: (path: string, problem: string) => never): Message {
  if (!(desc.typeName in INPUT_TYPES)) throw new Error(`splice-json: ${desc.typeName} is not supported`);
  const want = INPUT_TYPES[desc.typeName];
  const got = json === null ? "null" : Array.isArray(json) ? "array" : typeof json;
  if (want !== undefined && got !== want) fail(path, `expected ${want === "array" ? "an array" : `a JSON ${want}`}, got ${got}`);
  if (desc.typeName === "google.protobuf.Empty" && Object.keys(json as object).length > 0) fail(path, "expected an empty object");
  try {
    return fromJson(desc, json as JsonValue);
  } catch (e) {
    fail(path, desc.typeName === "google.protobuf.Timestamp" ? `expected an RFC 3339 timestamp, got ${JSON.stringify(json)}` : (e as Error).message);
  }
}
