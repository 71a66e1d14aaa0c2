import { claims, type OidcConfig } from "./oidc.js";

/** The UI's only channel to the node: the public /v0 JSON API, with the session's bearer token. */

export class ApiError extends Error {}

export interface Session {
  readonly user: string;
  readonly token: string;
}

/** Calls `/v0/...`; a refusal throws the server's own error text. */
export async function api<T>(session: Session | undefined, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (session) headers.authorization = `Bearer ${session.token}`;
  // no-store: a wallet's answers must not outlive its session in the browser's disk cache.
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  const text = await res.text();
  if (!res.ok) throw new ApiError(errorText(text, res.status));
  return (text === "" ? {} : JSON.parse(text)) as T;
}

function errorText(text: string, status: number): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; cause?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
    if (typeof parsed.cause === "string") return parsed.cause;
  } catch {
    // not JSON: the text itself is the message
  }
  return text || `HTTP ${status}`;
}

/** What the node tells the UI about logging in (`GET /ui/config`). */
export interface UiConfig {
  readonly devLogin: boolean;
  readonly oidc?: OidcConfig;
}

export function loadUiConfig(): Promise<UiConfig> {
  return api<UiConfig>(undefined, "GET", "/ui/config");
}

/** The dev login: the node signs a token for the user; the secret never reaches the browser. */
export function devLogin(user: string): Promise<Session> {
  return api<Session>(undefined, "POST", "/ui/session", { user });
}

const key = "ccwallet.session";

/** The stored session, unless its token has expired (then the user logs in again). */
export function loadSession(): Session | undefined {
  const raw = localStorage.getItem(key);
  if (raw === null) return undefined;
  const s = JSON.parse(raw) as Session;
  const { exp } = claims(s.token);
  return typeof exp === "number" && exp * 1000 < Date.now() ? undefined : s;
}

export function saveSession(s: Session | undefined): void {
  if (s === undefined) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(s));
}

/** Unique ids for tracking/deduplication: a retried click must not send twice. */
export function freshId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID()}`;
}
