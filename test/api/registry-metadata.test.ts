/** The registry's token-metadata-v1 API (`/registry/metadata/v1/...`), direct and behind the scan proxy. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let dso: string;
let alice: { party: string; user: string; token: string };
const PREFIXES = ["", "/v0/scan-proxy", "/api/validator/v0/scan-proxy"];

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
  dso = (await s.json("GET", "/v0/scan-proxy/dso-party-id", undefined, alice.token)).body.dso_party_id;
});
afterAll(async () => s?.stop());

const AMULET = {
  id: "Amulet",
  name: "Amulet",
  symbol: "Amulet",
  decimals: 10,
  supportedApis: {
    "splice-api-token-metadata-v1": 1,
    "splice-api-token-holding-v1": 1,
    "splice-api-token-transfer-instruction-v1": 1,
    "splice-api-token-allocation-v1": 1,
    "splice-api-token-allocation-instruction-v1": 1,
  },
};

describe("token-metadata-v1", () => {
  it("info names the DSO as admin and the APIs served, without a token and under every prefix", async () => {
    for (const prefix of PREFIXES) {
      const r = await s.json("GET", `${prefix}/registry/metadata/v1/info`, undefined, null);
      expect(r.status, prefix).toBe(200);
      expect(r.body).toEqual({ adminId: dso, supportedApis: AMULET.supportedApis });
    }
    expect(dso).toMatch(/^DSO::1220/);
  });

  it("lists Amulet as the one instrument and serves it by id", async () => {
    const list = await s.json("GET", "/registry/metadata/v1/instruments?pageSize=10", undefined, null);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ instruments: [AMULET] });
    const one = await s.json("GET", "/v0/scan-proxy/registry/metadata/v1/instruments/Amulet", undefined, null);
    expect(one.body).toEqual(AMULET);
    const after = await s.json("GET", "/registry/metadata/v1/instruments?pageToken=Amulet", undefined, null);
    expect(after.body).toEqual({ instruments: [] });
  });

  it("bad input gets the registry's {error}: unknown instrument 404, negative page size 400", async () => {
    const unknown = await s.json("GET", "/registry/metadata/v1/instruments/Bitcoin", undefined, null);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: expect.stringContaining("Bitcoin") });
    const negative = await s.json("GET", "/registry/metadata/v1/instruments?pageSize=-1", undefined, null);
    expect(negative.status).toBe(400);
    expect(typeof negative.body.error).toBe("string");
  });
});
