/**
 * Traffic purchases over real HTTP: `POST /v0/wallet/buy-traffic-requests` and its tracking-id
 * status. The wallet automation completes a request (paying from the user's holdings), cancels
 * one it cannot pay and expires one past its expiry; each outcome is checked on `/v2` and every
 * 200 body against the Splice OpenAPI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { BUY_TRAFFIC_REQUEST, startOffers, type OffersFixture, type WalletUserHandle } from "./v0-offers-support.js";

const SECOND = 1_000_000n;
const HOUR = 3600n * SECOND;

let o: OffersFixture;
let alice: WalletUserHandle;
let poor: WalletUserHandle;
let synchronizerId: string;
let n = 0;

beforeAll(async () => {
  o = await startOffers();
  alice = await o.onboard("alice");
  poor = await o.onboard("poor");
  synchronizerId = o.fx.t.server.api.identity.synchronizerId;
  await o.fx.tap(alice.party, "1000");
  await o.settle();
});
afterAll(() => o?.fx.stop());

const now = () => o.fx.clock.now();
const request = (extra: Record<string, unknown> = {}) => ({
  receiving_validator_party_id: alice.party,
  domain_id: synchronizerId,
  traffic_amount: 200_000,
  tracking_id: `traffic-${++n}`,
  expires_at: Number(now() + HOUR),
  ...extra,
});
const status = (who: WalletUserHandle, tracking: string) => o.call("POST", `/v0/wallet/buy-traffic-requests/${encodeURIComponent(tracking)}/status`, who.token);

describe("POST /v0/wallet/buy-traffic-requests", () => {
  it("creates the request, and the wallet automation buys the traffic from the user's holdings", async () => {
    const body = request();
    const created = await o.paused(async () => {
      const r = await o.call("POST", "/v0/wallet/buy-traffic-requests", alice.token, body);
      expect(r.status, r.text).toBe(200);
      const cid = r.body.request_contract_id as string;
      const [onLedger] = (await o.acs(alice, BUY_TRAFFIC_REQUEST)).filter((c) => c.contractId === cid);
      expect(onLedger.createArgument).toMatchObject({
        endUserParty: alice.party,
        trafficAmount: "200000",
        synchronizerId,
        memberId: o.fx.t.server.api.identity.participantId,
        trackingId: body.tracking_id,
        migrationId: "0",
      });
      expect((await status(alice, body.tracking_id)).body).toEqual({ status: "created" });
      return cid;
    });
    await o.settle();
    const done = await status(alice, body.tracking_id);
    expect(done.body).toEqual({ status: "completed", transaction_id: expect.any(String) });
    const tx = await o.update(alice, done.body.transaction_id);
    expect(tx.events[0]).toMatchObject({ kind: "ExercisedEvent", choice: "BuyTrafficRequest_Complete", contractId: created });
    expect(tx.events.map((e) => e.choice)).toContain("AmuletRules_BuyMemberTraffic");
    // 0.2 MB × 16.67 USD/MB / 0.005 USD/CC = 666.8 CC
    expect(await o.balanceOf(alice.party)).toEqual(["333.2000000000"]);
    expect((await o.call("POST", "/v0/wallet/buy-traffic-requests", alice.token, body)).status).toBe(409);
  });

  it("a request the user cannot pay is cancelled: failed/rejected with the reason", async () => {
    const body = request({ receiving_validator_party_id: poor.party });
    expect((await o.call("POST", "/v0/wallet/buy-traffic-requests", poor.token, body)).status).toBe(200);
    await o.settle();
    expect((await status(poor, body.tracking_id)).body).toEqual({
      status: "failed",
      failure_reason: "rejected",
      rejection_reason: "insufficient funds: 666.8000000000 CC requested, 0.0000000000 CC available",
    });
    expect(await o.acs(poor, BUY_TRAFFIC_REQUEST)).toEqual([]);
  });

  it("a request past its expiry is failed/expired, and the automation archives it instead of paying", async () => {
    const body = request({ expires_at: Number(now() + 10n * SECOND) });
    const before = await o.balanceOf(alice.party);
    await o.paused(async () => {
      expect((await o.call("POST", "/v0/wallet/buy-traffic-requests", alice.token, body)).status).toBe(200);
      o.fx.clock.set(now(), now() + 11n * SECOND);
      expect((await status(alice, body.tracking_id)).body).toEqual({ status: "failed", failure_reason: "expired" });
    });
    await o.settle();
    expect((await status(alice, body.tracking_id)).body).toEqual({ status: "failed", failure_reason: "expired" });
    expect(await o.acs(alice, BUY_TRAFFIC_REQUEST)).toEqual([]);
    expect(await o.balanceOf(alice.party)).toEqual(before);
  });

  it("refuses bad requests with 400 and changes nothing; 404 for an unknown tracking id", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ domain_id: "other::1220ab" }, /domain_id: "other::1220ab" is not a synchronizer of this network/],
      [{ traffic_amount: 1000 }, /traffic_amount: 1000 bytes is below the minimum top-up of 200000 bytes/],
      [{ traffic_amount: -5 }, /traffic_amount: -5 bytes is below the minimum top-up/],
      [{ receiving_validator_party_id: "nobody::1220ab" }, /receiving_validator_party_id: party nobody::1220ab does not exist/],
      [{ receiving_validator_party_id: "nobody" }, /is not a party id/],
      [{ expires_at: Number(now()) }, /expires_at: .* is not in the future/],
      [{ tracking_id: "" }, /tracking_id: must not be empty/],
      [{ traffic_amount: "lots" }, /traffic_amount: expected an integer/],
    ];
    for (const [patch, error] of cases) {
      const r = await o.call("POST", "/v0/wallet/buy-traffic-requests", alice.token, request(patch));
      expect({ patch, status: r.status }).toEqual({ patch, status: 400 });
      expect(r.body.error).toMatch(error);
    }
    expect(await o.acs(alice, BUY_TRAFFIC_REQUEST)).toEqual([]);
    expect((await status(alice, "no-such-request")).body).toEqual({ error: 'no buy traffic request with tracking id "no-such-request" is known' });
    expect((await status(alice, "no-such-request")).status).toBe(404);
  });
});

describeOpenApiConformance(() => o.log, {
  title: "every 200 body above conforms, and every error body is {error}",
  operations: [
    "validator-internal.yaml#onboardUser",
    "wallet-external.yaml#createBuyTrafficRequest",
    "wallet-external.yaml#getBuyTrafficRequestStatus",
  ],
});
