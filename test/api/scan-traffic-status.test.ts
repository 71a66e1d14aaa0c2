/** Scan's `/api/scan/v0/domains/{domain_id}/members/{member_id}/traffic-status`. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let participant: string;
let synchronizer: string;

beforeAll(async () => {
  s = await startTestServer();
  participant = (await s.json("GET", "/v2/parties/participant-id")).body.participantId;
  synchronizer = (await s.json("GET", "/v2/state/connected-synchronizers")).body.connectedSynchronizers[0].synchronizerId;
});
afterAll(async () => s?.stop());

const path = (sync: string, member: string) => `/api/scan/v0/domains/${encodeURIComponent(sync)}/members/${encodeURIComponent(member)}/traffic-status`;

describe("traffic-status", () => {
  it("answers the participant's traffic, without a token: nothing purchased, nothing consumed", async () => {
    const r = await s.json("GET", path(synchronizer, participant), undefined, null);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ traffic_status: { actual: { total_consumed: 0, total_limit: 0 }, target: { total_purchased: 0 } } });
  });

  it("bad input gets scan's {error}: malformed member 400, unknown synchronizer 404", async () => {
    const bad = await s.json("GET", path(synchronizer, "alice"), undefined, null);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("alice");
    const unknown = await s.json("GET", path("other::1220ab", participant), undefined, null);
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.error).toBe("string");
  });
});
