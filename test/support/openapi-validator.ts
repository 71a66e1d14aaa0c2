/**
 * Checks response bodies against the public Splice OpenAPI files (../shared/reference/openapi or
 * `CCWALLET_OPENAPI_DIR`): finds the operation for (method, path) — with or without the
 * `/api/validator` prefix, registry paths also behind `/v0/scan-proxy` — and validates the body
 * against the response schema the operation lists for the status.
 *
 * The OpenAPI 3.0 subset these files use: `$ref` (local), `type`, `format` (int32, int64,
 * date-time), `enum`, `nullable`, `properties`, `required`, `additionalProperties`, `items`,
 * `minItems`, `allOf`, `oneOf` (with or without `discriminator`/`mapping`). Stricter than OpenAPI
 * on one point, on purpose: an object schema that declares `properties` (itself or through
 * `allOf`) and says nothing about `additionalProperties` accepts no other keys, so a codec that
 * prints a key the spec does not have is caught (and `oneOf` without discriminator becomes decidable).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

type Schema = { [key: string]: unknown };
type Doc = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema>; responses?: Record<string, Schema> } };
type Operation = { operationId?: string; responses?: Record<string, Schema> };

export interface ResponseCheck {
  /** The operation found, as `file#operationId`; undefined when no operation matches. */
  readonly operation?: string;
  /** False when the operation lists no JSON schema for this status (nothing to check). */
  readonly checked: boolean;
  readonly problems: readonly string[];
}

export interface OpenApiValidator {
  readonly dir: string;
  readonly files: readonly string[];
  checkResponse(method: string, path: string, status: number, body: unknown): ResponseCheck;
}

export const OPENAPI_DIR = process.env.CCWALLET_OPENAPI_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/reference/openapi");

let cached: OpenApiValidator | null | undefined;

/** The validator, or undefined (with one clear line on stderr) when the OpenAPI folder is absent. */
export function loadOpenApi(dir = OPENAPI_DIR): OpenApiValidator | undefined {
  if (cached !== undefined && dir === OPENAPI_DIR) return cached ?? undefined;
  const v = existsSync(dir) ? createValidator(dir) : undefined;
  if (!v) console.warn(`OpenAPI folder ${dir} not found: response validation against the Splice OpenAPI is SKIPPED (set CCWALLET_OPENAPI_DIR)`);
  if (dir === OPENAPI_DIR) cached = v ?? null;
  return v;
}

interface Candidate {
  readonly file: string;
  readonly doc: Doc;
  readonly method: string;
  readonly op: Operation;
  readonly pattern: RegExp;
  readonly variables: number;
}

function createValidator(dir: string): OpenApiValidator {
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
  const candidates: Candidate[] = [];
  for (const file of files) {
    const doc = parse(readFileSync(join(dir, file), "utf8")) as Doc;
    for (const [template, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(item ?? {})) {
        if (typeof op !== "object" || op === null || !("responses" in op)) continue;
        const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
        candidates.push({ file, doc, method: method.toUpperCase(), op, pattern: new RegExp(`^${source}$`), variables: (template.match(/\{/g) ?? []).length });
      }
    }
  }
  candidates.sort((a, b) => a.variables - b.variables);
  return {
    dir,
    files,
    checkResponse(method, path, status, body) {
      const bare = specPath(path.split("?")[0]);
      const c = candidates.find((x) => x.method === method.toUpperCase() && x.pattern.test(bare));
      if (!c) return { checked: false, problems: [`no operation ${method} ${bare} in ${dir}`] };
      const operation = `${c.file}#${c.op.operationId ?? "?"}`;
      const response = c.op.responses?.[String(status)] ?? c.op.responses?.default;
      const schema = response && (deref(c.doc, response).content as { "application/json"?: { schema?: Schema } } | undefined)?.["application/json"]?.schema;
      if (!schema) return { operation, checked: false, problems: [] };
      return { operation, checked: true, problems: validate(c.doc, schema, body, "$", true) };
    },
  };
}

/** The path as the OpenAPI files spell it. */
function specPath(path: string): string {
  const p = path.startsWith("/api/validator/v0/") ? path.slice("/api/validator".length) : path;
  return p.startsWith("/v0/scan-proxy/registry/") ? p.slice("/v0/scan-proxy".length) : p;
}

function deref(doc: Doc, s: Schema): Schema {
  let cur = s;
  for (let i = 0; typeof cur.$ref === "string"; i++) {
    if (i > 32) throw new Error(`$ref loop at ${String(cur.$ref)}`);
    const parts = (cur.$ref as string).replace(/^#\//, "").split("/");
    let target: unknown = doc;
    for (const p of parts) target = (target as Record<string, unknown> | undefined)?.[p];
    if (!target) throw new Error(`unresolved $ref ${String(cur.$ref)}`);
    cur = target as Schema;
  }
  return cur;
}

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Properties declared by a schema and its `allOf` members, and whether extra keys are allowed. */
function declared(doc: Doc, s: Schema): { props: Set<string>; open: boolean } {
  const props = new Set(Object.keys((s.properties as Schema | undefined) ?? {}));
  let open = s.additionalProperties !== undefined && s.additionalProperties !== false;
  let any = s.properties !== undefined;
  for (const m of (s.allOf as Schema[] | undefined) ?? []) {
    const d = declared(doc, deref(doc, m));
    d.props.forEach((p) => props.add(p));
    open ||= d.open;
    any ||= d.props.size > 0;
  }
  return { props, open: open || !any };
}

function validate(doc: Doc, schemaRef: Schema, v: unknown, path: string, strict: boolean): string[] {
  const s = deref(doc, schemaRef);
  if (v === null) return s.nullable === true ? [] : [`${path}: null is not allowed`];
  if (s.oneOf) return validateOneOf(doc, s, v, path);
  const problems: string[] = [];
  for (const m of (s.allOf as Schema[] | undefined) ?? []) problems.push(...validate(doc, m, v, path, false));
  const type = (s.type as string | undefined) ?? (s.properties || s.allOf ? "object" : undefined);
  const t = typeOf(v);
  switch (type) {
    case undefined:
      break;
    case "integer":
      if (typeof v !== "number" || !Number.isInteger(v)) return [`${path}: expected an integer, got ${t}`];
      if (s.format === "int32" && (v < -(2 ** 31) || v >= 2 ** 31)) problems.push(`${path}: ${v} is not an int32`);
      break;
    case "number":
      if (typeof v !== "number") return [`${path}: expected a number, got ${t}`];
      break;
    case "string":
      if (typeof v !== "string") return [`${path}: expected a string, got ${t}`];
      if (s.format === "date-time" && !RFC3339.test(v)) problems.push(`${path}: ${JSON.stringify(v)} is not an RFC 3339 date-time`);
      break;
    case "boolean":
      if (typeof v !== "boolean") return [`${path}: expected a boolean, got ${t}`];
      break;
    case "array":
      if (!Array.isArray(v)) return [`${path}: expected an array, got ${t}`];
      if (typeof s.minItems === "number" && v.length < s.minItems) problems.push(`${path}: fewer than ${s.minItems} items`);
      v.forEach((e, i) => problems.push(...validate(doc, (s.items as Schema | undefined) ?? {}, e, `${path}[${i}]`, true)));
      break;
    case "object":
      if (t !== "object") return [`${path}: expected an object, got ${t}`];
      problems.push(...validateObject(doc, s, v as Record<string, unknown>, path, strict));
      break;
    default:
      problems.push(`${path}: unsupported schema type ${type}`);
  }
  if (Array.isArray(s.enum) && !s.enum.includes(v)) problems.push(`${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s.enum)}`);
  return problems;
}

function validateObject(doc: Doc, s: Schema, o: Record<string, unknown>, path: string, strict: boolean): string[] {
  const problems: string[] = [];
  const props = (s.properties as Record<string, Schema> | undefined) ?? {};
  for (const r of (s.required as string[] | undefined) ?? []) if (!(r in o)) problems.push(`${path}: missing required property ${r}`);
  for (const [k, e] of Object.entries(o)) if (props[k]) problems.push(...validate(doc, props[k], e, `${path}.${k}`, true));
  const extra = s.additionalProperties;
  if (typeof extra === "object" && extra !== null) {
    for (const [k, e] of Object.entries(o)) if (!props[k]) problems.push(...validate(doc, extra as Schema, e, `${path}.${k}`, true));
  }
  if (strict) {
    const d = declared(doc, s);
    if (!d.open) for (const k of Object.keys(o)) if (!d.props.has(k)) problems.push(`${path}: property ${k} is not in the schema`);
  }
  return problems;
}

function validateOneOf(doc: Doc, s: Schema, v: unknown, path: string): string[] {
  const branches = s.oneOf as Schema[];
  const disc = s.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (disc) {
    const tag = typeOf(v) === "object" ? (v as Record<string, unknown>)[disc.propertyName] : undefined;
    if (typeof tag !== "string") return [`${path}: missing discriminator ${disc.propertyName}`];
    const ref = disc.mapping?.[tag] ?? branches.map((b) => b.$ref as string).find((r) => r?.endsWith(`/${tag}`));
    if (!ref) return [`${path}.${disc.propertyName}: ${JSON.stringify(tag)} is not one of ${Object.keys(disc.mapping ?? {}).join(", ")}`];
    return validate(doc, { $ref: ref }, v, path, true);
  }
  const results = branches.map((b) => validate(doc, b, v, path, true));
  const passing = results.filter((r) => r.length === 0).length;
  if (passing === 1) return [];
  return [`${path}: matches ${passing} of the ${branches.length} oneOf branches (exactly one expected)${passing === 0 ? `: ${results.map((r) => r[0]).join("; ")}` : ""}`];
}

/** Collects the responses a suite saw, to check them all against the OpenAPI in one test. */
export class ResponseLog {
  private readonly seen: { method: string; path: string; status: number; body: unknown }[] = [];

  add(method: string, path: string, status: number, body: unknown): void {
    this.seen.push({ method, path, status, body });
  }

  /** Problems of every logged response whose status the operation documents with a JSON schema, and the operations checked. */
  check(v: OpenApiValidator, statuses: (status: number) => boolean = (s) => s === 200): { problems: string[]; operations: Set<string> } {
    const problems: string[] = [];
    const operations = new Set<string>();
    for (const r of this.seen.filter((x) => statuses(x.status))) {
      const c = v.checkResponse(r.method, r.path, r.status, r.body);
      if (c.operation) operations.add(c.operation);
      problems.push(...c.problems.map((p) => `${r.method} ${r.path} ${r.status}: ${p}`));
    }
    return { problems, operations };
  }
}
