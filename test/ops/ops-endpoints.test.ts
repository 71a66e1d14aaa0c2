/**
 * The operator's endpoints on a running node: liveness and readiness (Splice's paths too), and
 * Prometheus metrics that move with the traffic a client sends; readiness turns 503 when the
 * store stops answering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIou, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

const get = async (path: string) => {
  const res = await fetch(s.http + path);
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
};

/** The value of one sample line, e.g. `metric{label="x"} 3`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split("\n").find((l) => l.startsWith(name) && (l[name.length] === " " || l[name.length] === "{") && want.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("operations endpoints", () => {
  it("answers liveness and readiness without a token, on both prefixes", async () => {
    for (const path of ["/livez", "/readyz", "/api/validator/livez", "/api/validator/readyz"]) {
      const r = await get(path);
      expect([path, r.status, r.text]).toEqual([path, 200, "ok\n"]);
    }
    expect((await fetch(s.http + "/readyz", { method: "POST" })).status).toBe(405);
  });

  it("exports metrics that follow the node's traffic", async () => {
    const alice = await s.partyUser("metrics");
    for (let i = 0; i < 3; i++) expect((await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party), alice.token)).status).toBe(200);
    expect((await s.json("GET", "/v0/wallet/balance", undefined, alice.token)).status).toBe(403);
    await s.server.network.automation.runNow();

    const m = await get("/metrics");
    expect(m.status).toBe(200);
    expect(m.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const end = Number((await s.json("GET", "/v2/state/ledger-end")).body.offset);
    expect(sample(m.text, "ccwallet_ledger_end")).toBe(end);
    expect(sample(m.text, "ccwallet_http_request_duration_seconds_count", { route: "/v2/commands/submit-and-wait-for-transaction", method: "POST", status: "200" })).toBe(3);
    expect(sample(m.text, "ccwallet_http_request_duration_seconds_count", { route: "/v0/wallet/balance", method: "GET", status: "403" })).toBe(1);
    expect(sample(m.text, "ccwallet_rpc_duration_seconds_count", { method: "CommandService/SubmitAndWaitForTransaction", code: "ok" })).toBe(3);
    expect(sample(m.text, "ccwallet_rpc_duration_seconds_count", { method: "WalletService/GetBalance", code: "permission_denied" })).toBe(1);
    expect(sample(m.text, "ccwallet_ledger_commit_duration_seconds_count", { outcome: "committed" })).toBeGreaterThanOrEqual(3);
    // The automation's triggers ran (the DSO's round steps at least), each run counted by outcome.
    expect(m.text).toMatch(/ccwallet_trigger_completed_total\{trigger_name="[^"]+",outcome="(noop|success)"\} [1-9]/);
    // The operator's wallet is one party with no holdings yet: one sample in the lowest bucket.
    expect(sample(m.text, "ccwallet_wallet_holdings_per_party_count")).toBeGreaterThanOrEqual(1);
    // The participant's traffic: the base-rate bucket spent by the commits above, nothing bought.
    expect(sample(m.text, "ccwallet_traffic_bytes", { kind: "purchased" })).toBe(0);
    expect(sample(m.text, "ccwallet_traffic_bytes", { kind: "base_remainder" })).toBeGreaterThan(0);
    expect(m.text).not.toContain(alice.party);
  });

  it("turns not ready when the store stops answering", async () => {
    await s.server.store.close();
    const r = await get("/readyz");
    expect(r.status).toBe(503);
    expect(r.text).toMatch(/^not ready:\nstore unavailable: /);
    expect((await get("/livez")).status).toBe(200);
  });
});
