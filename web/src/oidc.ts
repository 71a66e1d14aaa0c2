/**
 * OIDC authorization code + PKCE in the browser (when the node's UI config names an issuer):
 * discovery, a redirect to the authorization endpoint with an S256 challenge, and on the way back
 * the code exchanged for an access token at the token endpoint. The token is the /v0 bearer; its
 * `sub` is the ledger user id (as Splice's UI does).
 */
import type { Session } from "./api.js";

export interface OidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly audience?: string;
  readonly redirectUri?: string;
  readonly scope?: string;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

interface Pending {
  verifier: string;
  state: string;
  redirectUri: string;
  tokenEndpoint: string;
}

const pendingKey = "ccwallet.oidc.pending";

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const random = (n: number) => base64url(crypto.getRandomValues(new Uint8Array(n)));

async function discover(issuer: string): Promise<Discovery> {
  const res = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`OIDC discovery at ${issuer} failed: HTTP ${res.status}`);
  return (await res.json()) as Discovery;
}

/** Leaves the page for the identity provider's login. */
export async function startOidcLogin(config: OidcConfig): Promise<void> {
  const d = await discover(config.issuer);
  const verifier = random(32);
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  const pending: Pending = { verifier, state: random(16), redirectUri: config.redirectUri ?? `${location.origin}/`, tokenEndpoint: d.token_endpoint };
  sessionStorage.setItem(pendingKey, JSON.stringify(pending));
  const url = new URL(d.authorization_endpoint);
  const params: Record<string, string> = {
    response_type: "code",
    client_id: config.clientId,
    redirect_uri: pending.redirectUri,
    // Canton takes a token without an audience only with the daml_ledger_api scope.
    scope: config.scope ?? "openid daml_ledger_api",
    state: pending.state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  };
  if (config.audience) params.audience = config.audience;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  location.assign(url.toString());
}

/** On the redirect back: the code for a token, or undefined when this page load is no OIDC callback. */
export async function completeOidcLogin(config: OidcConfig): Promise<Session | undefined> {
  const query = new URLSearchParams(location.search);
  const code = query.get("code");
  const failure = query.get("error");
  if (code === null && failure === null) return undefined;
  const raw = sessionStorage.getItem(pendingKey);
  sessionStorage.removeItem(pendingKey);
  history.replaceState(null, "", location.pathname);
  // Only an answer to the login this tab started is read (a link anyone can make carries `error`
  // too), and a refusal shows its error code only: its description is text of the link's maker.
  if (raw === null) throw new Error("No login in progress in this browser tab; log in again.");
  const pending = JSON.parse(raw) as Pending;
  if (query.get("state") !== pending.state) throw new Error("The login answer does not match the login this tab started; log in again.");
  if (failure !== null) throw new Error(`Login refused by the identity provider (${/^[a-z_]{1,64}$/.test(failure) ? failure : "error"}); log in again.`);
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: code!,
    redirect_uri: pending.redirectUri,
    client_id: config.clientId,
    code_verifier: pending.verifier,
  });
  const res = await fetch(pending.tokenEndpoint, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  const json = (await res.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
  if (!res.ok || !json.access_token) throw new Error(`Token exchange failed: ${json.error_description ?? json.error ?? `HTTP ${res.status}`}`);
  const sub = claims(json.access_token).sub;
  if (typeof sub !== "string") throw new Error("The access token has no sub claim (the ledger user id).");
  return { user: sub, token: json.access_token };
}

/** A JWT's claims, unverified (the node verifies; the browser only reads `sub` and `exp`). */
export function claims(token: string): { sub?: unknown; exp?: unknown } {
  try {
    const part = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(part)) as { sub?: unknown; exp?: unknown };
  } catch {
    return {};
  }
}
