/**
 * The wallet web UI on the JSON port: the built single-page app (web/dist, built by `npm install`'s
 * `prepare`) at `/` and `/wallet/`, the development login `POST /ui/session {user}`, and the
 * browser's login settings `GET /ui/config`. Only GETs
 * outside the API prefixes land here; everything else stays with the JSON gateway.
 */
import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BodyTooLarge, readBody, send } from "./http-io.js";
import { isLoopbackHost } from "./loopback.js";
import type { RequestTarget } from "./request-url.js";

const defaultDist = resolve(fileURLToPath(new URL("../../../web/dist", import.meta.url)));

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

export interface WebUiOptions {
  /** Signs a session token for a user (the app layer passes the HS256 issuer; the secret stays there). */
  readonly issueToken: (user: string) => Promise<string>;
  /**
   * Whether a user holds power over more than its own parties: it administers the ledger
   * (ParticipantAdmin, IdentityProviderAdmin, or the configured admin user) or reads or executes as
   * any party. The dev login never signs for one. The UI is a wallet and needs no such token, and a
   * login that trusts a user name must not be one step from the whole node or all of its data.
   */
  readonly isPrivileged: (user: string) => Promise<boolean>;
  /**
   * Whether `POST /ui/session` issues tokens: "loopback" (the listener is on loopback) to requests
   * addressed to a loopback name only, "on" (explicitly enabled) to any, "off" never. Either way
   * only to a JSON POST from no other origin.
   */
  readonly devLogin: DevLogin;
  /** OIDC settings for the browser's authorization code + PKCE login (no secrets: a public client). */
  readonly oidc?: UiOidcSettings;
  readonly dist?: string;
}

export type DevLogin = "off" | "loopback" | "on";

export interface UiOidcSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly audience?: string;
  readonly redirectUri?: string;
  readonly scope?: string;
}

/** Paths the API owns; a GET there is never answered with the app. */
const apiPrefixes = ["/v0/", "/v2/", "/api/", "/registry/", "/readyz", "/livez", "/metrics"];

export function isWebUiRequest(method: string, pathname: string): boolean {
  if (pathname === "/ui/session") return method === "POST";
  if (method !== "GET" && method !== "HEAD") return false;
  return !apiPrefixes.some((p) => pathname.startsWith(p));
}

/** Serves a web UI request; `url` is its target, parsed (request-url.ts). */
export function createWebUi(options: WebUiOptions): (req: IncomingMessage, res: ServerResponse, url: RequestTarget) => void {
  const dist = options.dist ?? defaultDist;
  return (req, res, url) => {
    for (const [name, value] of UI_HEADERS) res.setHeader(name, value);
    const pathname = url.pathname;
    const work =
      pathname === "/ui/session"
        ? issueSession(options, req, res)
        : pathname === "/ui/config"
          ? Promise.resolve(uiConfig(options, res))
          : serveFile(dist, pathname, res);
    work.catch((e: unknown) => send(res, 500, { error: e instanceof Error ? e.message : String(e) }));
  };
}

/**
 * On every UI response: no other site may frame the wallet (its session is in this origin's
 * storage, and its buttons move CC: clickjacking), no type sniffing, no referrer leaking paths.
 */
const UI_HEADERS: readonly (readonly [string, string])[] = [
  ["x-frame-options", "DENY"],
  ["content-security-policy", "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"],
  ["x-content-type-options", "nosniff"],
  ["referrer-policy", "no-referrer"],
];

/** How the browser logs in: the dev login's availability and the OIDC issuer, if any. */
function uiConfig(options: WebUiOptions, res: ServerResponse): void {
  res.setHeader("cache-control", "no-cache");
  send(res, 200, { devLogin: options.devLogin !== "off", ...(options.oidc ? { oidc: options.oidc } : {}) });
}

/** The dev login: a user name in, a token signed here for that user out; the secret stays on the node. */
async function issueSession(options: WebUiOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (options.devLogin === "off") return send(res, 403, { error: "The development login is disabled on this node; log in with the configured identity provider." });
  const refused = sessionRefusal(options.devLogin, req);
  if (refused) return send(res, refused.status, { error: refused.error });
  let user: unknown;
  try {
    user = (JSON.parse(await readBody(req, 4096)) as { user?: unknown }).user;
  } catch (e) {
    if (e instanceof BodyTooLarge) return send(res, 413, { error: `The body exceeds ${e.limit} bytes.` });
    return send(res, 400, { error: "The body must be JSON {\"user\": \"name\"}." });
  }
  if (typeof user !== "string" || !/^[A-Za-z0-9@^$.!`\-#+'~_|:()]{1,128}$/.test(user)) {
    return send(res, 400, { error: "The user name must be 1-128 characters of letters, digits and @^$.!`-#+'~_|:()" });
  }
  if (await options.isPrivileged(user)) {
    return send(res, 403, { error: "The development login signs in wallet users, not ledger administrators or users who read or execute as any party." });
  }
  const token = await options.issueToken(user);
  send(res, 200, { user, token });
}

/**
 * Why a dev-login request is refused, if it is. A web page the user opens elsewhere must not get a
 * token: a cross-site POST of `text/plain` needs no preflight, so the body must be declared JSON
 * (a cross-site JSON POST is preflighted, and nothing here allows it); an Origin must be this very
 * host; and on a loopback listener the request must be addressed to a loopback name, or a page
 * whose DNS name the attacker rebinds to 127.0.0.1 would count as same-origin, and must carry no
 * proxy's forwarding header. A reverse proxy on the same machine that adds none (nginx's plain
 * `proxy_pass http://127.0.0.1:7575` sends `Host: 127.0.0.1:7575` and nothing else) cannot be told
 * from a local browser: the README says to turn the dev login off there, and it is off by default
 * once an OIDC issuer is configured.
 */
function sessionRefusal(devLogin: "loopback" | "on", req: IncomingMessage): { status: number; error: string } | undefined {
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") return { status: 415, error: "The body must be JSON {\"user\": \"name\"}, sent as content-type application/json." };
  const host = req.headers.host ?? "";
  const origin = req.headers.origin;
  if (origin !== undefined && hostOf(origin) !== host.toLowerCase()) {
    return { status: 403, error: "The development login answers only the web UI of this node (Origin differs from Host)." };
  }
  if (devLogin === "loopback" && !isLoopbackName(host)) {
    return { status: 403, error: "The development login answers only requests addressed to this machine (localhost, 127.0.0.1 or [::1])." };
  }
  if (devLogin === "loopback" && PROXY_HEADERS.some((h) => req.headers[h] !== undefined)) {
    return { status: 403, error: "The development login answers only requests made on this machine, not forwarded by a proxy." };
  }
  return undefined;
}

/** Headers a reverse proxy adds (RFC 7239 and the de facto ones). */
const PROXY_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "via"] as const;

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** A Host header naming this machine, with any port. */
function isLoopbackName(host: string): boolean {
  return isLoopbackHost(host.replace(/:\d+$/, ""));
}

/** A file of the build, or index.html for any other path (the app routes on the client). */
async function serveFile(dist: string, pathname: string, res: ServerResponse): Promise<void> {
  const rel = pathname.replace(/^\/wallet(\/|$)/, "/");
  let decoded: string;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    return send(res, 400, { error: "The path's percent-encoding is malformed." });
  }
  const path = normalize(join(dist, decoded));
  const inside = path.startsWith(dist + "/");
  const file = inside && (await stat(path).catch(() => undefined))?.isFile() ? path : join(dist, "index.html");
  const body = await readFile(file).catch(() => undefined);
  if (body === undefined) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    return void res.end("The web UI is not built: run npm install (its prepare script runs vite build).");
  }
  // Vite names assets by content hash: they never change under their name.
  const hashed = file.includes(`${"/assets/"}`);
  res.writeHead(200, {
    "content-type": types[extname(file)] ?? "application/octet-stream",
    "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
    "content-length": body.length,
  });
  res.end(body);
}
