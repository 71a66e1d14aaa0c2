/**
 * Assembles the Splice-JSON form of a request message from an HTTP call: the body (whole or into
 * one field, per the annotation), path variables and query parameters (by their JSON key, typed
 * from the field: `?limit=10` is the number 10). A value given twice is refused; unknown query
 * parameters are ignored, as Splice's server does.
 */
import { ScalarType, type DescField } from "@bufbuild/protobuf";
import type { Route } from "./route-table.js";
import { spliceKeyOf, SpliceJsonError } from "./splice-json.js";

type JsonObject = { [key: string]: unknown };

export function spliceRequestJsonOf(route: Route, params: readonly string[], query: URLSearchParams, body: unknown): JsonObject {
  const input = route.method.input;
  let json: JsonObject = {};
  if (route.body === "*") {
    // An absent or `null` body is an empty request (OpenAPI: optional, nullable request bodies).
    if (body !== undefined && body !== null) {
      if (typeof body !== "object" || Array.isArray(body)) throw new SpliceJsonError("", "the request body must be a JSON object");
      json = { ...(body as JsonObject) };
    }
  } else if (route.body !== "") {
    const f = input.fields.find((x) => x.name === route.body);
    if (!f) throw new Error(`annotation body ${route.body} is not a field of ${input.typeName}`);
    if (body !== undefined) json[spliceKeyOf(f)] = body;
  }
  route.variables.forEach((name, i) => {
    const f = input.fields.find((x) => x.name === name);
    if (!f) throw new Error(`path variable ${name} is not a field of ${input.typeName}`);
    const key = spliceKeyOf(f);
    if (key in json) throw new SpliceJsonError(key, "is given by the path and must not be in the body");
    json[key] = typed(f, params[i]);
  });
  for (const key of new Set(query.keys())) {
    const f = input.fields.find((x) => spliceKeyOf(x) === key);
    if (!f) continue;
    if (key in json) throw new SpliceJsonError(key, "is given twice (query and body or path)");
    const values = query.getAll(key).map((v) => typed(f, v));
    json[key] = f.fieldKind === "list" ? values : values[values.length - 1];
  }
  return json;
}

/** Path and query values are text; integer and boolean fields get their JSON types when well-formed. */
function typed(f: DescField, v: string): unknown {
  const scalar = f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar") ? f.scalar : undefined;
  if (scalar === undefined || scalar === ScalarType.STRING || scalar === ScalarType.BYTES) return v;
  if (scalar === ScalarType.BOOL) return v === "true" ? true : v === "false" ? false : v;
  return /^-?\d+$/.test(v) ? Number(v) : v;
}
