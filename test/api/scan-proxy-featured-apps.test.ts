/** `/v0/scan-proxy/featured-apps/{provider_party_id}`: the provider's FeaturedAppRight, or none. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
let operator: string;

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
  operator = (await s.json("GET", "/v0/validator-user", undefined, null)).body.party_id;
});
afterAll(async () => s?.stop());

const path = (prefix: string, party: string) => `${prefix}/v0/scan-proxy/featured-apps/${encodeURIComponent(party)}`;

describe("featured-apps lookup", () => {
  it("answers the validator operator's right (the DSO features it at start) under both prefixes", async () => {
    const dso = (await s.json("GET", "/v0/scan-proxy/dso-party-id", undefined, alice.token)).body.dso_party_id;
    for (const prefix of ["", "/api/validator"]) {
      const r = await s.json("GET", path(prefix, operator), undefined, alice.token);
      expect(r.status, prefix).toBe(200);
      const right = r.body.featured_app_right;
      expect(right.template_id).toMatch(/^[0-9a-f]{64}:Splice\.Amulet:FeaturedAppRight$/);
      expect(right.payload).toEqual({ dso, provider: operator });
      expect(right.contract_id).toMatch(/^00[0-9a-f]+$/);
    }
  });

  it("answers {} for a party without a right", async () => {
    const r = await s.json("GET", path("", alice.party), undefined, alice.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
  });

  it("bad input: a malformed party is a 400 {error}, no token a 401", async () => {
    const bad = await s.json("GET", path("", "not-a-party"), undefined, alice.token);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe("string");
    expect((await s.json("GET", path("", operator), undefined, null)).status).toBe(401);
  });
});
