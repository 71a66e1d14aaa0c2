/**
 * The node serves the built web UI on the JSON port (caching headers, SPA fallback, API paths left
 * to the API) and issues dev-login session tokens that the /v0 API accepts. The build comes from
 * `npm install`'s prepare script (web/dist).
 */
import { readdirSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

let node: TestServer;
beforeAll(async () => {
  node = await startTestServer();
});
afterAll(() => node.stop());

describe("the web UI on the JSON port", () => {
  it("serves index.html at /, /wallet/ and any client route, never cached", async () => {
    for (const path of ["/", "/wallet/", "/wallet/transfer", "/transactions"]) {
      const r = await fetch(node.http + path);
      expect([path, r.status, r.headers.get("cache-control"), r.headers.get("content-type")]).toEqual([path, 200, "no-cache", "text/html; charset=utf-8"]);
      expect(await r.text()).toContain('<div id="app"></div>');
    }
  });

  it("serves hashed assets as immutable, also under /wallet/", async () => {
    const [asset] = readdirSync(new URL("../../web/dist/assets", import.meta.url)).filter((f) => f.endsWith(".js"));
    for (const path of [`/assets/${asset}`, `/wallet/assets/${asset}`]) {
      const r = await fetch(node.http + path);
      expect([r.status, r.headers.get("cache-control"), r.headers.get("content-type")]).toEqual([200, "public, max-age=31536000, immutable", "text/javascript; charset=utf-8"]);
    }
  });

  it("lets no other site frame it, sniff its types or read its paths (clickjacking headers on every UI response)", async () => {
    const [asset] = readdirSync(new URL("../../web/dist/assets", import.meta.url)).filter((f) => f.endsWith(".js"));
    for (const [method, path] of [["GET", "/"], ["GET", "/wallet/transfer"], ["GET", `/assets/${asset}`], ["GET", "/ui/config"], ["POST", "/ui/session"]] as const) {
      const r = await fetch(node.http + path, { method, headers: { "content-type": "application/json" }, body: method === "POST" ? '{"user":"ui-frame"}' : undefined });
      expect([path, r.headers.get("x-frame-options"), r.headers.get("content-security-policy"), r.headers.get("x-content-type-options"), r.headers.get("referrer-policy")]).toEqual([
        path,
        "DENY",
        "frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
        "nosniff",
        "no-referrer",
      ]);
    }
  });

  it("leaves API paths to the API: an unknown /v0 path is still the API's 404", async () => {
    const r = await fetch(node.http + "/v0/no-such-thing");
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: "The requested resource could not be found: GET /v0/no-such-thing" });
  });

  it("issues a dev-login token on loopback that the /v0 API accepts for that user", async () => {
    const r = await node.json("POST", "/ui/session", { user: "ui-dora" }, null);
    expect(r.status).toBe(200);
    expect(r.body.user).toBe("ui-dora");
    const onboarded = await node.json("POST", "/v0/register", {}, r.body.token);
    expect(onboarded.status).toBe(200);
    const status = await node.json("GET", "/v0/wallet/user-status", undefined, r.body.token);
    expect([status.body.party_id, status.body.user_onboarded]).toEqual([onboarded.body.party_id, true]);
  });

  it("tells the browser how to log in at GET /ui/config: the dev login, no OIDC issuer by default", async () => {
    const r = await node.json("GET", "/ui/config", undefined, null);
    expect([r.status, r.body]).toEqual([200, { devLogin: true }]);
  });

  it("gives no token to another site's page or through a proxy: text/plain bodies, a foreign Origin, a rebound Host name, forwarded requests", async () => {
    const port = Number(new URL(node.http).port);
    const post = (headers: Record<string, string>, body = JSON.stringify({ user: "participant_admin" })) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/ui/session", method: "POST", headers: { "content-length": Buffer.byteLength(body), ...headers } }, (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on("error", reject);
        req.end(body);
      });
    const refusals = [
      // A CORS "simple" request: no preflight, so the body must be declared JSON.
      [{ "content-type": "text/plain" }, 415, /content-type application\/json/],
      [{}, 415, /content-type application\/json/],
      // A page on another origin (the browser says so in Origin).
      [{ "content-type": "application/json", origin: "http://evil.example" }, 403, /Origin differs from Host/],
      // DNS rebinding: the attacker's name now points at 127.0.0.1, so its page is "same-origin".
      [{ "content-type": "application/json", host: `rebind.attacker.example:${port}`, origin: `http://rebind.attacker.example:${port}` }, 403, /addressed to this machine/],
      // A reverse proxy on this machine (nginx's proxy_pass http://127.0.0.1:port keeps a loopback Host).
      [{ "content-type": "application/json", "x-forwarded-for": "203.0.113.9" }, 403, /not forwarded by a proxy/],
      [{ "content-type": "application/json", forwarded: "for=203.0.113.9;host=wallet.example.com" }, 403, /not forwarded by a proxy/],
      [{ "content-type": "application/json", "x-real-ip": "203.0.113.9" }, 403, /not forwarded by a proxy/],
      [{ "content-type": "application/json", via: "1.1 proxy" }, 403, /not forwarded by a proxy/],
    ] as const;
    for (const [headers, status, error] of refusals) {
      const r = await post(headers);
      expect([JSON.stringify(headers), r.status]).toEqual([JSON.stringify(headers), status]);
      expect(r.body.error).toMatch(error);
      expect(r.body).not.toHaveProperty("token");
    }
    // An oversized body is 413, a malformed one 400; neither gets a token.
    const big = await post({ "content-type": "application/json" }, JSON.stringify({ user: "x".repeat(10_000) }));
    expect([big.status, big.body.error]).toEqual([413, "The body exceeds 4096 bytes."]);
    const bad = await post({ "content-type": "application/json" }, '{"user":');
    expect([bad.status, bad.body.error]).toEqual([400, 'The body must be JSON {"user": "name"}.']);
    // The UI itself, on localhost or 127.0.0.1, with or without an Origin.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const r = await post({ "content-type": "application/json; charset=utf-8", host, origin: `http://${host}` }, JSON.stringify({ user: "ui-erin" }));
      expect([host, r.status, r.body.user]).toEqual([host, 200, "ui-erin"]);
    }
  });

  it("never signs for a user whose rights reach beyond its own parties: admins, and readers or executors as any party", async () => {
    const privileged = [
      ["ui-root", "ParticipantAdmin"],
      ["ui-idp", "IdentityProviderAdmin"],
      ["ui-indexer", "CanReadAsAnyParty"],
      ["ui-executor", "CanExecuteAsAnyParty"],
    ];
    for (const [id, right] of privileged) {
      const created = await node.json("POST", "/v2/users", { user: { id }, rights: [{ kind: { [right]: { value: {} } } }] });
      expect(created.status, created.text).toBe(200);
    }
    for (const user of ["participant_admin", ...privileged.map(([id]) => id)]) {
      const r = await node.json("POST", "/ui/session", { user }, null);
      expect([user, r.status, r.body.error]).toEqual([user, 403, "The development login signs in wallet users, not ledger administrators or users who read or execute as any party."]);
      expect(r.body).not.toHaveProperty("token");
    }
  });

  it("refuses a malformed user name with the reason", async () => {
    const r = await node.json("POST", "/ui/session", { user: "no spaces" }, null);
    expect([r.status, r.body.error]).toEqual([400, "The user name must be 1-128 characters of letters, digits and @^$.!`-#+'~_|:()"]);
  });
});

describe("the dev login when disabled", () => {
  it("is off by default once an OIDC issuer is configured (a real login), unless turned on", async () => {
    const oidc = { CCWALLET_UI_OIDC_ISSUER: "https://idp.example/realms/x", CCWALLET_UI_OIDC_CLIENT_ID: "wallet", CCWALLET_AUTH_JWKS_URL: "https://idp.example/jwks" };
    const withIssuer = await startTestServer(oidc);
    try {
      expect((await withIssuer.json("GET", "/ui/config", undefined, null)).body.devLogin).toBe(false);
      expect((await withIssuer.json("POST", "/ui/session", { user: "x" }, null)).status).toBe(403);
    } finally {
      await withIssuer.stop();
    }
  });

  it("answers 403 with the reason", async () => {
    const off = await startTestServer({ CCWALLET_UI_DEV_LOGIN: "false" });
    try {
      const r = await off.json("POST", "/ui/session", { user: "x" }, null);
      expect([r.status, r.body.error]).toEqual([403, "The development login is disabled on this node; log in with the configured identity provider."]);
      expect((await off.json("GET", "/ui/config", undefined, null)).body).toEqual({ devLogin: false });
    } finally {
      await off.stop();
    }
  });
});
