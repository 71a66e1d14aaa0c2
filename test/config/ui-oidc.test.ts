/** The web UI's OIDC settings: env over the config file, a client id and a JWKS URL required with an issuer. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";

describe("the web UI's OIDC settings", () => {
  it("is off without an issuer", () => {
    expect(loadConfig({}).uiOidc).toBeUndefined();
  });

  it("comes from the env, the audience defaulting to the node's", () => {
    const c = loadConfig({
      CCWALLET_UI_OIDC_ISSUER: "https://idp.example/realms/x",
      CCWALLET_UI_OIDC_CLIENT_ID: "wallet",
      CCWALLET_AUTH_JWKS_URL: "https://idp.example/realms/x/certs",
      CCWALLET_AUTH_AUDIENCE: "https://canton.network.global",
    });
    expect(c.uiOidc).toEqual({ issuer: "https://idp.example/realms/x", clientId: "wallet", audience: "https://canton.network.global" });
  });

  it("comes from the config file's ui.oidc, the env winning", () => {
    const file = join(mkdtempSync(join(tmpdir(), "ccwallet-ui-oidc-")), "c.json");
    writeFileSync(file, JSON.stringify({ ui: { oidc: { issuer: "https://a.example", clientId: "from-file", scope: "openid daml_ledger_api" } } }));
    const c = loadConfig({ CCWALLET_CONFIG: file, CCWALLET_AUTH_JWKS_URL: "https://a.example/jwks", CCWALLET_UI_OIDC_CLIENT_ID: "from-env" });
    expect(c.uiOidc).toEqual({ issuer: "https://a.example", clientId: "from-env", scope: "openid daml_ledger_api" });
  });

  it("refuses an issuer without a client id or a JWKS to verify its tokens", () => {
    expect(() => loadConfig({ CCWALLET_UI_OIDC_ISSUER: "https://idp.example" })).toThrow(ConfigError);
    expect(() => loadConfig({ CCWALLET_UI_OIDC_ISSUER: "https://idp.example" })).toThrow(/CCWALLET_UI_OIDC_CLIENT_ID[\s\S]*CCWALLET_AUTH_JWKS_URL/);
  });
});
