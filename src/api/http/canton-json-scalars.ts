/**
 * Scalars and enums of the Canton JSON encoding: 64-bit integers print as JSON numbers (input:
 * numbers or numeric strings, range-checked), bytes as base64 (input: base64 or base64url),
 * non-finite floats as "NaN" / "Infinity", enums by value name (input: name or number).
 */
import { ScalarType, type DescEnum } from "@bufbuild/protobuf";
import { fail } from "./canton-json-error.js";
import { expected } from "./json-shape.js";

export function encodeScalar(t: ScalarType, v: unknown): unknown {
  switch (t) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return Number(v as bigint | string);
    case ScalarType.BYTES:
      return Buffer.from(v as Uint8Array).toString("base64");
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE: {
      const n = v as number;
      return Number.isFinite(n) ? n : String(n);
    }
    default:
      return v;
  }
}

export function decodeMapKey(t: ScalarType, k: string, path: string): string {
  switch (t) {
    case ScalarType.STRING:
      return k;
    case ScalarType.BOOL:
      if (k !== "true" && k !== "false") fail(path, "expected a boolean map key");
      return k;
    default:
      return String(decodeScalar(t, false, k, path));
  }
}

export function decodeEnum(e: DescEnum, v: unknown, path: string): number {
  if (typeof v === "string") {
    const hit = e.values.find((x) => x.name === v);
    if (!hit) fail(path, `unknown ${e.name} ${JSON.stringify(v)}; expected one of ${e.values.map((x) => x.name).join(", ")}`);
    return hit.number;
  }
  if (typeof v === "number" && Number.isInteger(v)) {
    if (!e.values.some((x) => x.number === v)) fail(path, `unknown ${e.name} number ${v}`);
    return v;
  }
  fail(path, expected(`a ${e.name} name`, v));
}

const INT_RE = /^-?\d+$/;
const INT32: [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];
const UINT32: [bigint, bigint] = [0n, 2n ** 32n - 1n];
const INT64: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const UINT64: [bigint, bigint] = [0n, 2n ** 64n - 1n];

function decodeInteger(v: unknown, [min, max]: [bigint, bigint], what: string, path: string): bigint {
  let n: bigint;
  if (typeof v === "number") {
    if (!Number.isInteger(v)) fail(path, expected(`an integer (${what})`, v));
    if (!Number.isSafeInteger(v)) fail(path, `${v} is beyond 2^53; send ${what} values this large as a decimal string`);
    n = BigInt(v);
  } else if (typeof v === "string" && INT_RE.test(v.trim())) {
    n = BigInt(v.trim());
  } else {
    fail(path, expected(`an integer (${what})`, v));
  }
  if (n < min || n > max) fail(path, `${n} is out of range for ${what}`);
  return n;
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64URL_RE = /^[A-Za-z0-9\-_]*={0,2}$/;

export function decodeScalar(t: ScalarType, longAsString: boolean, v: unknown, path: string): unknown {
  switch (t) {
    case ScalarType.STRING:
      if (typeof v !== "string") fail(path, expected("a string", v));
      return v;
    case ScalarType.BOOL:
      if (typeof v !== "boolean") fail(path, expected("a boolean", v));
      return v;
    case ScalarType.BYTES: {
      if (typeof v !== "string") fail(path, expected("a base64 string", v));
      const ok = BASE64_RE.test(v) || (BASE64URL_RE.test(v) && v.replace(/=+$/, "").length % 4 !== 1);
      if (!ok) fail(path, "invalid base64");
      return new Uint8Array(Buffer.from(v, "base64"));
    }
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return Number(decodeInteger(v, INT32, "int32", path));
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return Number(decodeInteger(v, UINT32, "uint32", path));
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64: {
      const n = decodeInteger(v, INT64, "int64", path);
      return longAsString ? n.toString() : n;
    }
    case ScalarType.UINT64:
    case ScalarType.FIXED64: {
      const n = decodeInteger(v, UINT64, "uint64", path);
      return longAsString ? n.toString() : n;
    }
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE: {
      if (typeof v === "number") return v;
      if (typeof v === "string") {
        if (v === "NaN") return NaN;
        if (v === "Infinity") return Infinity;
        if (v === "-Infinity") return -Infinity;
        if (v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
      }
      fail(path, expected("a number", v));
    }
  }
}
