/**
 * Routes of the JSON gateway, read from the `google.api.http` annotations on the services' methods,
 * so there is no hand-written route per endpoint: add an annotation, get a route.
 */
import { getOption, hasOption, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { http } from "../../../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../../gen/google/api/http_pb.js";

/** The JSON dialect of a route: Canton's JSON Ledger API (`/v2`) or Splice's (`/v0`, registry). */
export type Dialect = "canton" | "splice";

export interface Route {
  readonly dialect: Dialect;
  readonly httpMethod: string;
  readonly pattern: RegExp;
  /** Path variables in order: the proto field name each binds to. */
  readonly variables: readonly string[];
  /** "" (no body), "*" (whole request) or the name of the request field the body fills. */
  readonly body: string;
  /** "" (the whole response) or the response field sent as the body (a `bytes` one goes out raw). */
  readonly responseBody: string;
  readonly service: DescService;
  readonly method: DescMethod;
  readonly template: string;
}

const escape = (literal: string) => literal.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");

/** The template's regex and its variables (`{user_id}`, or `{user.id}` for a field of a field). */
function compile(template: string): { pattern: RegExp; variables: string[] } {
  const variables: string[] = [];
  let source = "";
  let at = 0;
  for (const m of template.matchAll(/\{([a-z_.]+)(?:=[^}]*)?\}/g)) {
    source += `${escape(template.slice(at, m.index))}([^/]+)`;
    variables.push(m[1]!);
    at = m.index + m[0].length;
  }
  return { pattern: new RegExp(`^${source}${escape(template.slice(at))}$`), variables };
}

function bindings(rule: HttpRule): { httpMethod: string; path: string; body: string; responseBody: string }[] {
  const p = rule.pattern;
  const own =
    p.case === "get" || p.case === "post" || p.case === "put" || p.case === "delete" || p.case === "patch"
      ? [{ httpMethod: p.case.toUpperCase(), path: p.value, body: rule.body, responseBody: rule.responseBody }]
      : p.case === "custom" && p.value
        ? [{ httpMethod: p.value.kind.toUpperCase(), path: p.value.path, body: rule.body, responseBody: rule.responseBody }]
        : [];
  return [...own, ...rule.additionalBindings.flatMap(bindings)];
}

export interface RouteOptions {
  readonly dialect?: Dialect;
  /** More paths to serve each annotated path under (e.g. the `/api/validator` prefix). */
  readonly aliases?: (path: string) => readonly string[];
}

export function routesOf(services: readonly DescService[], options: RouteOptions = {}): Route[] {
  const routes: Route[] = [];
  const dialect = options.dialect ?? "canton";
  for (const service of services) {
    for (const method of service.methods) {
      if (!hasOption(method, http)) continue;
      for (const b of bindings(getOption(method, http))) {
        for (const path of [b.path, ...(options.aliases?.(b.path) ?? [])]) {
          const { pattern, variables } = compile(path);
          routes.push({ dialect, httpMethod: b.httpMethod, pattern, variables, body: b.body, responseBody: b.responseBody, service, method, template: path });
        }
      }
    }
  }
  return sortRoutes(routes);
}

/** Literal segments beat variables: `/v2/parties/participant-id` before `/v2/parties/{parties}`. */
export function sortRoutes(routes: Route[]): Route[] {
  return routes.sort((a, b) => a.variables.length - b.variables.length);
}

/** The routes without path variables, by path: most requests find theirs without a regex. */
interface RouteIndex {
  readonly literal: ReadonlyMap<string, readonly Route[]>;
  /** The routes with variables, in their order (after every literal route: see sortRoutes). */
  readonly variable: readonly Route[];
}

const indexes = new WeakMap<readonly Route[], RouteIndex>();

function indexOf(routes: readonly Route[]): RouteIndex {
  let index = indexes.get(routes);
  if (!index) {
    const literal = new Map<string, Route[]>();
    const variable: Route[] = [];
    for (const route of routes) {
      if (route.variables.length > 0) variable.push(route);
      else {
        const same = literal.get(route.template);
        if (same) same.push(route);
        else literal.set(route.template, [route]);
      }
    }
    index = { literal, variable };
    indexes.set(routes, index);
  }
  return index;
}

/**
 * The route and its decoded path variables; "bad-encoding" when a variable is not valid
 * percent-encoding (`%ZZ`). Routes are taken in their order, literal ones first, so `routes` must
 * come from routesOf/sortRoutes and not change afterwards (the index is built once per array).
 */
export function matchRoute(routes: readonly Route[], httpMethod: string, path: string): { route: Route; params: string[] } | "method-not-allowed" | "bad-encoding" | undefined {
  const { literal, variable } = indexOf(routes);
  const same = literal.get(path);
  const exact = same?.find((r) => r.httpMethod === httpMethod);
  if (exact) return { route: exact, params: [] };
  let pathMatched = same !== undefined;
  for (const route of variable) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (route.httpMethod !== httpMethod) continue;
    const params = m.slice(1).map(decodeSegment);
    return params.every((p) => p !== undefined) ? { route, params: params as string[] } : "bad-encoding";
  }
  return pathMatched ? "method-not-allowed" : undefined;
}

/** The methods a path is served with, for a 405's `Allow` (HEAD wherever GET is: RFC 9110 §9.1). */
export function allowedMethods(routes: readonly Route[], path: string): string[] {
  const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.httpMethod));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

function decodeSegment(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
