/** Bearer tokens: HS256 with the secret, RS256/ES256 from a JWKS served over real HTTP, audience checks. */
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTokenVerifier, issueToken } from "../../src/auth/index.js";
import { LedgerError } from "../../src/ledger/errors.js";

const secret = new TextEncoder().encode("0123456789abcdef0123456789abcdef");
let jwksServer: http.Server;
let jwksUrl: string;
let rsa: CryptoKeyPair;
let ec: CryptoKeyPair;

beforeAll(async () => {
  rsa = await generateKeyPair("RS256");
  ec = await generateKeyPair("ES256");
  const keys = [
    { ...(await exportJWK(rsa.publicKey)), kid: "rsa", alg: "RS256", use: "sig" },
    { ...(await exportJWK(ec.publicKey)), kid: "ec", alg: "ES256", use: "sig" },
  ];
  jwksServer = http.createServer((_req, res) => res.end(JSON.stringify({ keys })));
  await new Promise<void>((r) => jwksServer.listen(0, "127.0.0.1", r));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
});
afterAll(() => jwksServer?.close());

const sign = (alg: "RS256" | "ES256", key: CryptoKey, claims: { sub?: string; aud?: string; exp?: number }) => {
  let jwt = new SignJWT({}).setProtectedHeader({ alg, kid: alg === "RS256" ? "rsa" : "ec" }).setIssuedAt();
  if (claims.sub) jwt = jwt.setSubject(claims.sub);
  if (claims.aud) jwt = jwt.setAudience(claims.aud);
  jwt = jwt.setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 60);
  return jwt.sign(key);
};

async function rejection(p: Promise<unknown>): Promise<string> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(LedgerError);
  expect((e as LedgerError).code).toBe("UNAUTHENTICATED");
  return (e as LedgerError).message;
}

describe("token verifier", () => {
  it("accepts HS256 tokens signed with the secret and reads sub as the user id", async () => {
    const v = createTokenVerifier({ secret });
    expect((await v.verify(`Bearer ${await issueToken({ secret, userId: "alice" })}`)).userId).toBe("alice");
  });

  it("rejects missing, malformed, expired, forged and unsigned-algorithm tokens", async () => {
    const v = createTokenVerifier({ secret });
    expect(await rejection(v.verify(undefined))).toMatch(/no Authorization header/);
    expect(await rejection(v.verify("Basic abc"))).toMatch(/not a Bearer token/);
    expect(await rejection(v.verify(`Bearer ${await issueToken({ secret, userId: "a", expiresInSeconds: -60 })}`))).toMatch(/expired/);
    const other = new TextEncoder().encode("another-secret-another-secret-xx");
    expect(await rejection(v.verify(`Bearer ${await issueToken({ secret: other, userId: "a" })}`))).toMatch(/signature/);
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"sub":"a"}').toString("base64url")}.`;
    expect(await rejection(v.verify(`Bearer ${none}`))).toMatch(/algorithm none/);
  });

  it("without a configured audience, takes only this ledger's tokens: daml_ledger_api scope or this participant as audience, never another participant's", async () => {
    const participantId = "PAR::ccwallet::1220aa";
    const v = createTokenVerifier({ secret, jwksUrl, participantId });
    const rs = (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "rsa" }).setSubject("participant_admin").setIssuedAt().setExpirationTime("1m").sign(rsa.privateKey);
    const accepted = [
      { scope: "openid daml_ledger_api" },
      { scope: "daml_ledger_api", aud: "https://ledger.example" }, // an API identifier, not a participant
      { scope: "daml_ledger_api", aud: `https://daml.com/jwt/aud/participant/${participantId}` }, // the wallet SDK's form
      { aud: `https://daml.com/jwt/aud/participant/${participantId}` },
      { aud: ["https://other.example", `https://daml.com/jwt/aud/participant/${participantId}`] },
    ];
    for (const claims of accepted) expect((await v.verify(`Bearer ${await rs(claims)}`)).userId, JSON.stringify(claims)).toBe("participant_admin");
    const refused = [
      {}, // neither: a token of the same identity provider for anything at all
      { aud: "crm-app", scope: "openid email" }, // an OIDC token for another application
      { aud: "https://daml.com/jwt/aud/participant/PAR::other::1220bb" }, // another participant's
      { scope: "daml_ledger_api", aud: "https://daml.com/jwt/aud/participant/PAR::other::1220bb" }, // the scope does not make it ours
      { scope: "daml_ledger_api", aud: ["https://ledger.example", "https://daml.com/jwt/aud/participant/PAR::other::1220bb"] },
      { scope: "daml_ledger_api_extra" },
    ];
    for (const claims of refused) expect(await rejection(v.verify(`Bearer ${await rs(claims)}`)), JSON.stringify(claims)).toMatch(/not for this Ledger API/);
    // The node's own tokens carry the scope.
    expect((await v.verify(`Bearer ${await issueToken({ secret, userId: "alice" })}`)).userId).toBe("alice");
  });

  it("fetches a failing key set once for a burst of tokens, not once per token", async () => {
    let fetches = 0;
    const broken = http.createServer((_req, res) => {
      fetches++;
      res.writeHead(500).end("down");
    });
    await new Promise<void>((r) => broken.listen(0, "127.0.0.1", r));
    try {
      const v = createTokenVerifier({ jwksUrl: `http://127.0.0.1:${(broken.address() as AddressInfo).port}/jwks`, audience: "https://ledger.example" });
      for (let i = 0; i < 5; i++) {
        const token = await sign("RS256", rsa.privateKey, { sub: `u${i}`, aud: "https://ledger.example" });
        await rejection(v.verify(`Bearer ${token}`));
      }
      expect(fetches).toBe(1);
    } finally {
      broken.close();
    }
  });

  it("verifies RS256 and ES256 tokens against the JWKS, with the audience when configured", async () => {
    const v = createTokenVerifier({ secret, jwksUrl, audience: "https://ledger.example" });
    expect((await v.verify(`Bearer ${await sign("RS256", rsa.privateKey, { sub: "rs", aud: "https://ledger.example" })}`)).userId).toBe("rs");
    expect((await v.verify(`Bearer ${await sign("ES256", ec.privateKey, { sub: "es", aud: "https://ledger.example" })}`)).userId).toBe("es");
    expect(await rejection(v.verify(`Bearer ${await sign("RS256", rsa.privateKey, { sub: "rs", aud: "https://other" })}`))).toMatch(/aud/);
    expect(await rejection(v.verify(`Bearer ${await sign("RS256", rsa.privateKey, { aud: "https://ledger.example" })}`))).toMatch(/sub/);
    const stranger = await generateKeyPair("RS256");
    expect(await rejection(v.verify(`Bearer ${await sign("RS256", stranger.privateKey, { sub: "x", aud: "https://ledger.example" })}`))).toMatch(/signature|invalid/);
  });
});
