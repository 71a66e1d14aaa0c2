/**
 * Assembles the Canton-JSON form of a request message from an HTTP call: the body (whole or
 * into one field, per the annotation), path variables and query parameters. Query names are
 * matched loosely (`identity-provider-id`, `identity_provider_id`, `identityProviderId`) because
 * Canton's JSON API spells them in several styles.
 */
import { type DescField, type DescMessage, ScalarType } from "@bufbuild/protobuf";
import { errors } from "../../ledger/errors.js";
import { CantonJsonError } from "./canton-json-error.js";
import { expected } from "./json-shape.js";
import type { Route } from "./route-table.js";
import { extend } from "../../util/extend.js";

const GATEWAY_PARAMS = new Set(["limit", "stream_idle_timeout_ms"]);
const norm = (s: string) => s.replace(/[-_]/g, "").toLowerCase();

function fieldByName(message: DescMessage, name: string): DescField | undefined {
  return message.fields.find((f) => f.name === name || norm(f.name) === norm(name));
}

export function requestJsonOf(route: Route, params: readonly string[], query: URLSearchParams, body: unknown): Record<string, unknown> {
  const input = route.method.input;
  let json: Record<string, unknown> = {};
  if (route.body === "*") {
    // Undecodable like any other shape error: Canton answers 400 text/plain, not a JsCantonError.
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new CantonJsonError("", expected("an object", body));
    json = { ...(body as Record<string, unknown>) };
  } else if (route.body !== "" && body !== undefined) {
    // (undefined: a raw body the gateway puts in the message itself, see binary-body.ts)
    const f = fieldByName(input, route.body);
    if (!f) throw errors.internal(`annotation body ${route.body} is not a field of ${input.typeName}`);
    json[f.jsonName] = body;
  }
  route.variables.forEach((name, i) => {
    const [head, nested] = name.split(".");
    const f = fieldByName(input, head!);
    if (!f) return;
    if (nested === undefined) json[f.jsonName] = f.fieldKind === "list" ? [params[i]] : params[i];
    else if (f.fieldKind === "message") json[f.jsonName] = withPathField(f, nested, json[f.jsonName], params[i]!);
  });
  for (const key of new Set(query.keys())) {
    if (GATEWAY_PARAMS.has(key)) continue;
    const f = fieldByName(input, key);
    if (!f || f.jsonName in json) continue;
    const values = query.getAll(key).map((v) => scalarOf(f, v));
    json[f.jsonName] = f.fieldKind === "list" ? values : values[values.length - 1];
  }
  return json;
}

/**
 * The body's message `value` (field `f`) with its field `name` set from the path (`{user.id}`):
 * a body naming another value there is refused rather than one of them silently chosen.
 */
function withPathField(f: DescField & { fieldKind: "message" }, name: string, value: unknown, param: string): Record<string, unknown> {
  const inner = fieldByName(f.message, name);
  if (!inner) throw errors.internal(`path variable ${f.name}.${name} is not a field of ${f.message.typeName}`);
  if (value !== undefined && value !== null && (typeof value !== "object" || Array.isArray(value))) throw new CantonJsonError(f.jsonName, expected("an object", value));
  const body = (value ?? {}) as Record<string, unknown>;
  const given = body[inner.jsonName] ?? body[inner.name];
  if (given !== undefined && given !== null && given !== "" && given !== param) {
    throw new CantonJsonError(`${f.jsonName}.${inner.jsonName}`, `${JSON.stringify(given)} is not the ${JSON.stringify(param)} of the path`);
  }
  return extend(body, { [inner.jsonName]: param });
}

/** Query strings are text; numeric and boolean fields get their JSON types. */
function scalarOf(f: DescField, v: string): unknown {
  if (f.fieldKind !== "scalar" && f.fieldKind !== "list") return v;
  const scalar = f.fieldKind === "scalar" ? f.scalar : f.listKind === "scalar" ? f.scalar : undefined;
  if (scalar === ScalarType.BOOL) return v === "true" ? true : v === "false" ? false : v;
  const numeric = scalar !== undefined && scalar !== ScalarType.STRING && scalar !== ScalarType.BYTES;
  return numeric && /^-?\d+$/.test(v) ? Number(v) : v;
}
