/**
 * The generic half of the bad-input sweep: the bad requests every route gets (tokens; bodies, query
 * and path values derived from the route's request descriptor, its spec and its path variables'
 * names), and the checks every answer must pass — the API family's own error shape and a status
 * that family documents.
 */
import http from "node:http";
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { SignJWT } from "jose";
import type { Route } from "../../src/api/http/route-table.js";
import { spliceKeyOf } from "../../src/api/http/splice-json.js";
import type { World } from "./bad-input-specs.js";

export type Json = unknown;

/** One HTTP request of the sweep; `body` is sent as is (a string) or as JSON. */
export interface SweepRequest {
  readonly method: string;
  readonly path: string;
  readonly token: string | null;
  /** JSON text, or raw bytes for the routes that take them (DAR uploads). */
  readonly body?: string | Uint8Array;
  /** Content-Type of the body; application/json unless set. */
  readonly contentType?: string;
}

export interface SweepResponse {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** What a case may be answered with: exact statuses, or any non-5xx (`"any"`: the request is not bad for this route). */
export type Allowed = readonly number[] | "any";

export interface SweepCase {
  readonly name: string;
  readonly req: SweepRequest;
  readonly allowed: Allowed;
  /** The body cannot be decoded: Canton must answer a JsCantonError whose cause is "Invalid value for: ...". */
  readonly plain?: boolean;
}

export async function send(base: string, r: SweepRequest): Promise<SweepResponse> {
  const headers: Record<string, string> = {};
  if (r.token !== null) headers.authorization = r.token.startsWith("Basic ") ? r.token : `Bearer ${r.token}`;
  if (r.body !== undefined) headers["content-type"] = r.contentType ?? "application/json";
  // A request the server never answers is a finding too: fail it instead of stalling the sweep.
  const body = typeof r.body === "string" || r.body === undefined ? r.body : Buffer.from(r.body);
  if (r.method === "GET" && body !== undefined) return getWithBody(base + r.path, headers, body);
  const res = await fetch(base + r.path, { method: r.method, headers, body, signal: AbortSignal.timeout(5_000) }).catch((e: Error) => ({
    status: 599,
    headers: new Headers(),
    text: async () => `no answer: ${e.message}`,
  }));
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
}

/** A GET with a body (Canton's active-contracts-page takes one), which fetch refuses to send. */
function getWithBody(url: string, headers: Record<string, string>, body: string | Buffer): Promise<SweepResponse> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: "GET", headers: { ...headers, "content-length": Buffer.byteLength(body) }, timeout: 5_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (e) => resolve({ status: 599, contentType: "", text: `no answer: ${e.message}` }));
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// Tokens that must never pass.

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** Every way a bearer token can be wrong, given a good one and the server's secret. */
export async function badTokens(user: string, secret: Uint8Array): Promise<[string, string | null][]> {
  const now = Math.floor(Date.now() / 1000);
  const sign = (claims: Record<string, unknown>, key: Uint8Array, exp = now + 3600) =>
    new SignJWT({ scope: "daml_ledger_api", ...claims }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuedAt(now).setExpirationTime(exp).sign(key);
  const good = await sign({ sub: user }, secret);
  const [h, p] = good.split(".");
  return [
    ["no token", null],
    ["garbage token", "not-a-jwt"],
    ["not a Bearer token", "Basic YWxpY2U6c2VjcmV0"],
    ["expired token", await sign({ sub: user }, secret, now - 3600)],
    ["token signed with another secret", await sign({ sub: user }, new TextEncoder().encode("not the server's secret, 32 bytes!"))],
    ["token with a tampered payload", `${h}.${b64({ sub: "participant_admin", exp: now + 3600 })}.${good.split(".")[2]}`],
    ["token without a subject", await sign({}, secret)],
    ["token with alg none", `${b64({ alg: "none", typ: "JWT" })}.${p}.`],
    ["token whose header is JSON null", `${b64(null)}.${p}.sig`],
    ["token whose header is not JSON", `bm90IGpzb24.${p}.sig`],
  ];
}

// ---------------------------------------------------------------------------------------------
// Bodies.

const NUMERIC = new Set([
  ScalarType.INT32,
  ScalarType.INT64,
  ScalarType.UINT32,
  ScalarType.UINT64,
  ScalarType.SINT32,
  ScalarType.SINT64,
  ScalarType.FIXED32,
  ScalarType.FIXED64,
  ScalarType.SFIXED32,
  ScalarType.SFIXED64,
  ScalarType.DOUBLE,
  ScalarType.FLOAT,
]);

/** A JSON value of the wrong type for a field, or undefined when any JSON is right (google.protobuf.Value). */
export function wrongTypeFor(f: DescField): Json | undefined {
  if (f.fieldKind === "list" || f.fieldKind === "map") return "not-a-collection";
  if (f.fieldKind === "enum") return { not: "an enum" };
  if (f.fieldKind === "message") return f.message.typeName === "google.protobuf.Value" ? undefined : 12345;
  if (f.scalar === ScalarType.BOOL) return "yes";
  if (NUMERIC.has(f.scalar)) return "not-a-number";
  return 12345;
}

/** A JSON value of the wrong type, judged from a well-typed example value. */
export function wrongTypeLike(v: Json): Json {
  if (typeof v === "string") return 12345;
  if (typeof v === "number") return "not-a-number";
  if (typeof v === "boolean") return "yes";
  return Array.isArray(v) ? "not-an-array" : "not-an-object";
}

/** Fields of the body message that the body carries (path variables are not in the body). */
export function bodyFields(route: Route): DescField[] {
  const input = route.method.input as DescMessage;
  if (route.body === "*") return input.fields.filter((f) => !route.variables.includes(f.name));
  const f = input.fields.find((x) => x.name === route.body);
  return f?.fieldKind === "message" ? [...f.message.fields] : [];
}

export const isOptional = (f: DescField) => f.proto.proto3Optional === true;

const omit = (o: Record<string, Json>, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

export interface BodyCase {
  readonly name: string;
  readonly body: string;
  readonly allowed: readonly number[];
  /** The body cannot be decoded: Canton's cause is "Invalid value for: ..." (no service saw it). */
  readonly undecodable: boolean;
}

/**
 * The generic body cases of a route with a body: undecodable, wrong JSON kinds, every field of the
 * wrong type, every required field missing (Splice's codec knows which), an unknown field, and a
 * body over the server's limit. Each must be refused with 400 (413).
 */
export function bodyCases(route: Route, valid: Record<string, Json>, maxBodyBytes: number): BodyCase[] {
  const splice = route.dialect === "splice";
  const undecodable = (name: string, body: string): BodyCase => ({ name, body, allowed: [400], undecodable: true });
  const cases: BodyCase[] = [
    undecodable("malformed JSON", '{"a": '),
    undecodable("truncated body", JSON.stringify(valid).slice(0, -1)),
    undecodable("a JSON array", "[]"),
    undecodable("a JSON number", "42"),
    undecodable("a JSON string", '"body"'),
    undecodable("an unknown field", JSON.stringify({ ...valid, zzUnknownField: 1 })),
    { name: "an oversized body", body: JSON.stringify({ ...valid, padding: "x".repeat(maxBodyBytes + 1) }), allowed: [413], undecodable: true },
    // JSON.parse keeps the last of two equal keys; a duplicate must not smuggle a value past a check.
    undecodable("a duplicate key", JSON.stringify(valid).replace(/^\{/, '{"zzDup":1,"zzDup":2,')),
    ...(Object.keys(valid).length > 0 ? [undecodable("a valid field sent twice", JSON.stringify(valid).replace(/^\{/, `{${JSON.stringify(Object.keys(valid)[0])}:null,`))] : []),
  ];
  const keyed = splice
    ? bodyFields(route).map((f) => ({ key: spliceKeyOf(f), wrong: wrongTypeFor(f), required: !isOptional(f) && f.fieldKind !== "list" && f.fieldKind !== "map" }))
    : Object.entries(valid).map(([key, v]) => ({ key, wrong: wrongTypeLike(v), required: false }));
  for (const { key, wrong, required } of keyed) {
    if (wrong !== undefined) cases.push(undecodable(`${key} of the wrong type`, JSON.stringify({ ...valid, [key]: wrong })));
    if (splice && required) cases.push(undecodable(`${key} missing`, JSON.stringify(omit(valid, key))));
  }
  return cases;
}

/** Values to put in a path variable, by its name: the first is the one the other cases use. */
export function pathValues(name: string, w: World): string[] {
  const bad = "%ZZ"; // not valid percent-encoding
  switch (name) {
    case "contract_id":
    case "transfer_instruction_id":
    case "allocation_id":
      return [w.unknownCid, w.othersOffer, w.ownAmulet, w.othersAmulet, "not-a-contract-id", bad];
    case "tracking_id":
      return ["no-such-tracking-id", bad];
    case "receiver_party":
    case "provider_party_id":
    case "party":
    case "parties":
    case "party_details.party":
      return [w.ghost, "not-a-party", bad];
    case "user_id":
    case "user.id":
      return ["no-such-user", "not%20a%20user%20id", bad];
    case "update_id":
      return [w.unknownUpdateId, bad];
    case "offset":
      return ["999999", "-1", "abc"];
    case "domain_id":
      return ["other::1220ab", bad];
    case "member_id":
      return ["not-a-member", bad];
    case "instrument_id":
      return ["Bitcoin", bad];
    case "package_id":
      return ["not-a-package-id", "AB".repeat(32), bad];
    default:
      throw new Error(`no bad values for path variable ${name}: add them to pathValues`);
  }
}

/** Query cases: every numeric query field given a non-number. */
export function queryCases(route: Route): [string, string][] {
  const input = route.method.input as DescMessage;
  if (route.body === "*") return [];
  const key = (f: DescField) => (route.dialect === "splice" ? spliceKeyOf(f) : f.jsonName);
  return input.fields
    .filter((f) => !route.variables.includes(f.name) && f.name !== route.body && f.fieldKind === "scalar" && NUMERIC.has(f.scalar))
    .map((f) => [`query ${key(f)} not a number`, `${key(f)}=ten`]);
}

// ---------------------------------------------------------------------------------------------
// Answers.

/** Canton's HTTP status for a gRPC code (GrpcHttpErrorCodes), written out again here on purpose. */
const CANTON_HTTP: Record<number, number> = { 3: 400, 9: 400, 11: 400, 16: 401, 7: 403, 5: 404, 6: 409, 10: 409, 8: 429, 1: 499, 12: 501, 14: 503, 4: 504 };
const JS_CANTON_ERROR_KEYS = new Set(["code", "cause", "correlationId", "traceId", "context", "resources", "errorCategory", "grpcCodeValue", "retryInfo", "definiteAnswer"]);
/** Statuses the Splice OpenAPI files give `ErrorResponse` for (4xx), plus 413 for bodies over the limit. */
export const SPLICE_ERROR_STATUSES = new Set([400, 401, 403, 404, 409, 413, 415, 429]);

/** Problems with an error answer's shape; [] when it is the family's own. */
export function shapeProblems(dialect: Route["dialect"], r: SweepResponse): string[] {
  if (r.status < 400) return [];
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    body = undefined;
  }
  if (dialect === "splice") {
    const problems: string[] = [];
    if (!r.contentType.startsWith("application/json")) problems.push(`content-type ${r.contentType}`);
    const keys = body && typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : [];
    const error = (body as { error?: unknown } | undefined)?.error;
    if (keys.length !== 1 || typeof error !== "string" || error === "") problems.push(`not {"error": "..."}: ${r.text.slice(0, 200)}`);
    if (!SPLICE_ERROR_STATUSES.has(r.status)) problems.push(`status ${r.status} is not one the Splice API documents for errors`);
    return problems;
  }
  // Canton: every error is a JsCantonError, undecodable bodies included (issue #10).
  if (!r.contentType.startsWith("application/json")) return [`content-type ${r.contentType}: ${r.text.slice(0, 200)}`];
  const e = body as Record<string, unknown> | undefined;
  if (!e || typeof e !== "object" || Array.isArray(e)) return [`not a JsCantonError: ${r.text.slice(0, 200)}`];
  const problems = Object.keys(e)
    .filter((k) => !JS_CANTON_ERROR_KEYS.has(k))
    .map((k) => `unknown JsCantonError key ${k}`);
  if (typeof e.code !== "string" || typeof e.cause !== "string" || typeof e.errorCategory !== "number" || typeof e.context !== "object") {
    problems.push(`JsCantonError misses code/cause/context/errorCategory: ${r.text.slice(0, 200)}`);
  }
  // Statuses of the HTTP layer itself (body too large, media type, header size) carry INVALID_ARGUMENT.
  const httpLayer = [405, 413, 415, 431].includes(r.status) && e.grpcCodeValue === 3;
  if (!httpLayer && (typeof e.grpcCodeValue !== "number" || CANTON_HTTP[e.grpcCodeValue] !== r.status)) problems.push(`status ${r.status} does not follow grpcCodeValue ${String(e.grpcCodeValue)}`);
  return problems;
}
