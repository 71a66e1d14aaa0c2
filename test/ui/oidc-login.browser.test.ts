/**
 * The web UI's OIDC login (authorization code + PKCE) in a real Chromium: a tiny identity provider on
 * an ephemeral port (discovery, an authorize endpoint that approves at once, a token endpoint that
 * checks the PKCE verifier, a JWKS, RS256 tokens signed with jose), and the node verifying its JWKS.
 */
import chromium from "@sparticuz/chromium";
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { chromium as playwright, type Browser, type Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

const clientId = "ccwallet-ui";
const audience = "https://ccwallet.test";
const user = "oidc-carol";

interface Provider {
  readonly url: string;
  readonly issued: string[];
  close(): Promise<void>;
}

/** An identity provider that approves every login as `user`; PKCE S256 is checked as a real one would. */
async function startProvider(): Promise<Provider> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, { challenge: string; redirectUri: string; aud: string }>();
  const issued: string[] = [];
  const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type" };
  const json = (res: http.ServerResponse, status: number, body: unknown) => (res.writeHead(status, { ...cors, "content-type": "application/json" }), res.end(JSON.stringify(body)));
  let url = "";
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", url);
    if (req.method === "OPTIONS") return res.writeHead(204, cors), res.end();
    if (u.pathname === "/.well-known/openid-configuration") {
      return json(res, 200, { issuer: url, authorization_endpoint: `${url}/authorize`, token_endpoint: `${url}/token`, jwks_uri: `${url}/jwks`, code_challenge_methods_supported: ["S256"] });
    }
    if (u.pathname === "/jwks") return json(res, 200, { keys: [jwk] });
    if (u.pathname === "/authorize") {
      const q = u.searchParams;
      if (q.get("client_id") !== clientId || q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256") return json(res, 400, { error: "invalid_request" });
      const code = randomUUID();
      codes.set(code, { challenge: q.get("code_challenge")!, redirectUri: q.get("redirect_uri")!, aud: q.get("audience") ?? clientId });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      return res.writeHead(302, { location: back.toString() }), res.end();
    }
    if (u.pathname === "/token" && req.method === "POST") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", async () => {
        const f = new URLSearchParams(body);
        const grant = codes.get(f.get("code") ?? "");
        codes.delete(f.get("code") ?? "");
        const verifier = f.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!grant || grant.challenge !== challenge || grant.redirectUri !== f.get("redirect_uri") || f.get("client_id") !== clientId) {
          return json(res, 400, { error: "invalid_grant", error_description: "code, PKCE verifier or redirect URI do not match" });
        }
        const token = await new SignJWT({ scope: "openid" })
          .setProtectedHeader({ alg: "RS256", kid: "test-key" })
          .setIssuer(url)
          .setSubject(user)
          .setAudience(grant.aud)
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(privateKey);
        issued.push(token);
        json(res, 200, { access_token: token, token_type: "Bearer", expires_in: 3600 });
      });
      return;
    }
    json(res, 404, { error: "not_found" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, issued, close: () => new Promise((r) => server.close(() => r())) };
}

let provider: Provider;
let node: TestServer;
let browser: Browser;

beforeAll(async () => {
  provider = await startProvider();
  node = await startTestServer({
    CCWALLET_AUTH_JWKS_URL: `${provider.url}/jwks`,
    CCWALLET_AUTH_AUDIENCE: audience,
    CCWALLET_UI_OIDC_ISSUER: provider.url,
    CCWALLET_UI_OIDC_CLIENT_ID: clientId,
  });
  const args = chromium.args.filter((a) => a !== "--single-process" && a !== "--no-zygote");
  browser = await playwright.launch({ executablePath: process.env.CHROME_PATH ?? (await chromium.executablePath()), args, headless: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await node?.stop();
  await provider?.close();
});

const text = (l: Locator) => l.textContent({ timeout: 100 }).then((t) => t ?? "", () => "");
const SLOW = { timeout: 10_000, interval: 100 };

describe("the wallet UI's OIDC login", () => {
  it("logs in through the identity provider with PKCE and uses its RS256 token against /v0", async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(node.http + "/");
    await page.getByRole("button", { name: "Sign in with the identity provider" }).click();
    // Back from the provider: the code was exchanged, the URL cleaned, the token verified by the node.
    await page.getByRole("button", { name: "Onboard yourself" }).click();
    await expect.poll(() => text(page.getByRole("region", { name: "Balance" })), SLOW).toContain("0 CC");
    expect(await text(page.locator("header"))).toContain(user);
    expect(new URL(page.url()).search).toBe("");
    expect(provider.issued).toHaveLength(1);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("ccwallet.session")))!) as { token: string };
    expect(stored.token).toBe(provider.issued[0]);
    expect(JSON.parse(Buffer.from(stored.token.split(".")[0]!, "base64url").toString()).alg).toBe("RS256");
    // The party the node allocated is the token's user's.
    const status = await node.json("GET", "/v0/wallet/user-status", undefined, stored.token);
    expect(status.body.user_onboarded).toBe(true);
    await page.context().close();
  });

  it("shows the provider's refusal of the login this tab started by its error code, in an alert", async () => {
    const page = await (await browser.newContext()).newPage();
    // The provider refuses: back to the UI with the login's own state, an error and a description.
    await page.route(`${provider.url}/authorize?*`, (route) => {
      const asked = new URL(route.request().url()).searchParams;
      const back = new URL(asked.get("redirect_uri")!);
      back.search = new URLSearchParams({ error: "access_denied", error_description: "The user said no", state: asked.get("state")! }).toString();
      return route.fulfill({ status: 302, headers: { location: back.toString() } });
    });
    await page.goto(node.http + "/");
    await page.getByRole("button", { name: "Sign in with the identity provider" }).click();
    await expect.poll(() => text(page.getByRole("alert")), SLOW).toBe("Login refused by the identity provider (access_denied); log in again.");
    await page.context().close();
  });

  it("shows no text of a crafted link that claims a refusal: no login was in progress", async () => {
    // A hostile review put "Your wallet was frozen… send 50 CC to …" in the wallet's own alert this way.
    const page = await (await browser.newContext()).newPage();
    await page.goto(node.http + "/?error=access_denied&error_description=Your%20wallet%20was%20frozen");
    await expect.poll(() => text(page.getByRole("alert")), SLOW).toBe("No login in progress in this browser tab; log in again.");
    expect(new URL(page.url()).search).toBe("");
    await page.context().close();
  });
});
