/**
 * Exactly-once under concurrency, part 1: transfer offers and traffic purchases. The same request
 * is fired 10–20 times at once over HTTP and gRPC (Connect), and the money is checked to the last
 * decimal afterwards (balance endpoint and the contracts on `/v2` must agree; holdings carry
 * accrued holding fees, since time moved two rounds after funding). Static time keeps the fees
 * fixed while the races run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CcFixture } from "../support/cc-fixture.js";
import type { TestServer } from "../support/test-server.js";
import { acs, bearer, ofTemplate, type GrpcClients, type Wallet } from "./v0-coin-support.js";
import { expectOnly, holdFirst, minus, money, outrun, race, startRaces, successes as ok, tally, times, viaGrpc, type Answer, type Races } from "./v0-races-support.js";

const HOUR = 3_600_000_000n;
const OFFER = "Splice.Wallet.TransferOffer:TransferOffer";
const ACCEPTED = "Splice.Wallet.TransferOffer:AcceptedTransferOffer";
const TRAFFIC_REQUEST = "Splice.Wallet.BuyTrafficRequest:BuyTrafficRequest";

let r: Races;
let fx: CcFixture;
let s: TestServer;
let grpc: GrpcClients;
let call: Races["call"];
let w: Races["w"];
let n = 0;

beforeAll(async () => {
  const five = Array<string>(5).fill("40");
  r = await startRaces({ alice: five, bob: [], carol: five, dave: [], erin: five, frank: [], buyer: ["1000"] });
  ({ fx, s, grpc, call, w } = r);
});
afterAll(() => fx?.stop());

const settle = () => r.settle();
const paused = (f: () => Promise<void>) => r.paused(f);

function offerBody(to: Wallet, amount: string) {
  return { receiver_party_id: to.party, amount, description: "race", expires_at: Number(fx.clock.now() + HOUR), tracking_id: `race-${++n}` };
}

async function createOffer(from: Wallet, to: Wallet, amount: string): Promise<string> {
  const r = await call("POST", "/v0/wallet/transfer-offers", from, offerBody(to, amount));
  expect(r.status, r.text).toBe(200);
  return r.body.offer_contract_id;
}

type OfferAction = "accept" | "reject" | "withdraw";

/** An offer action over HTTP (even i) or gRPC (odd i). */
function act(who: Wallet, cid: string, action: OfferAction, i: number): Promise<Answer> {
  if (i % 2 === 0) return call("POST", `/v0/wallet/transfer-offers/${cid}/${action}`, who);
  const req = { contractId: cid };
  const rpc = { accept: () => grpc.wallet.acceptTransferOffer(req, bearer(who)), reject: () => grpc.wallet.rejectTransferOffer(req, bearer(who)), withdraw: () => grpc.wallet.withdrawTransferOffer(req, bearer(who)) };
  return viaGrpc<unknown>(rpc[action]());
}

describe("transfer offers under concurrency", () => {
  it("the same tracking_id created 20× at once (HTTP and gRPC): one offer, the rest 409/429; the sender pays once", async () => {
    const [from, to] = [w.alice, w.bob];
    const before = [await money(s, from), await money(s, to)];
    const body = offerBody(to, "12.5");
    const grpcBody = { receiverPartyId: to.party, amount: body.amount, description: body.description, expiresAt: BigInt(body.expires_at), trackingId: body.tracking_id };
    const answers = await race(20, (i) => (i % 2 === 0 ? call("POST", "/v0/wallet/transfer-offers", from, body) : viaGrpc(grpc.wallet.createTransferOffer(grpcBody, bearer(from)))));
    expect(ok(answers), JSON.stringify(tally(answers))).toHaveLength(1);
    expectOnly(answers, [409, 429]);
    const [winner] = ok(answers);
    const offers = ofTemplate(await acs(s, from), OFFER).filter((c) => c.createArgument.trackingId === body.tracking_id);
    expect(offers.map((c) => c.contractId)).toEqual([winner.body.offer_contract_id ?? winner.body.offerContractId]);
    expect((await call("POST", "/v0/wallet/transfer-offers", from, body)).status).toBe(409);

    expect((await act(to, offers[0].contractId, "accept", 0)).status).toBe(200);
    await settle();
    expect((await call("POST", `/v0/wallet/transfer-offers/${body.tracking_id}/status`, from)).body.status).toBe("completed");
    const after = [await money(s, from), await money(s, to)];
    expect(minus(before[0], after[0])).toBe("12.5000000000");
    expect(minus(after[1], before[1])).toBe("12.5000000000");
  });

  it("the receiver accepts one offer 10× at once: one acceptance, CC moved once", async () => {
    const [from, to] = [w.carol, w.dave];
    const cid = await createOffer(from, to, "7.25");
    const before = [await money(s, from), await money(s, to)];
    await paused(async () => {
      const answers = await race(10, (i) => act(to, cid, "accept", i));
      expect(ok(answers), JSON.stringify(tally(answers))).toHaveLength(1);
      expectOnly(answers, [404]);
      const [winner] = ok(answers);
      const accepted = ofTemplate(await acs(s, from), ACCEPTED);
      expect(accepted.map((c) => c.contractId)).toEqual([winner.body.accepted_offer_contract_id ?? winner.body.acceptedOfferContractId]);
    });
    await settle();
    expect(ofTemplate(await acs(s, from), ACCEPTED)).toEqual([]);
    const after = [await money(s, from), await money(s, to)];
    expect(minus(before[0], after[0])).toBe("7.2500000000");
    expect(minus(after[1], before[1])).toBe("7.2500000000");
  });

  it("accept races reject and withdraw: exactly one outcome per offer, the losers 404, CC moved only for accepted ones", async () => {
    const [from, to] = [w.erin, w.frank];
    const offers = [];
    for (let i = 0; i < 4; i++) offers.push(await createOffer(from, to, "3"));
    const before = [await money(s, from), await money(s, to)];
    const plan: [Wallet, OfferAction][] = [
      [to, "accept"],
      [from, "withdraw"],
      [to, "reject"],
      [to, "accept"],
      [from, "withdraw"],
      [to, "accept"],
      [to, "reject"],
      [from, "withdraw"],
    ];
    const perOffer = await Promise.all(offers.map((cid) => race(plan.length, (i) => act(plan[i][0], cid, plan[i][1], i))));
    let acceptedCount = 0;
    for (const [k, answers] of perOffer.entries()) {
      expect(ok(answers), `offer ${k}: ${JSON.stringify(tally(answers))}`).toHaveLength(1);
      expectOnly(answers, [404]);
      const won = plan[answers.findIndex((a) => a.status === 200)][1];
      if (won === "accept") acceptedCount++;
    }
    await settle();
    expect(ofTemplate(await acs(s, from), OFFER)).toEqual([]);
    expect(ofTemplate(await acs(s, from), ACCEPTED)).toEqual([]);
    const after = [await money(s, from), await money(s, to)];
    expect(minus(before[0], after[0])).toBe(times("3", acceptedCount));
    expect(minus(after[1], before[1])).toBe(times("3", acceptedCount));
  });
});

describe("the loser of a race for an offer, step by step", () => {
  /** Holds the commit of the receiver's accept, so a competing request commits first. */
  const holdAccept = (cid: string) => () => holdFirst(s.server.store, "commit", (c) => c.kind === "transaction" && c.completion.commandId === `transfer-offer-accept:${cid}`);
  const accept = (cid: string) => () => call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, w.bob);

  it("an accept that reaches the commit after a withdraw committed answers 404 (was 429, retry)", async () => {
    const cid = await createOffer(w.alice, w.bob, "1");
    const lost = await outrun(holdAccept(cid), accept(cid), () => call("POST", `/v0/wallet/transfer-offers/${cid}/withdraw`, w.alice));
    expect(lost).toMatchObject({ status: 404, body: { error: `transfer offer ${cid} not found` } });
    expect((await accept(cid)()).status).toBe(404);
  });

  it("of two identical accepts, the one committing last answers 404 (was 409, duplicate command)", async () => {
    const cid = await createOffer(w.alice, w.bob, "1");
    const lost = await outrun(holdAccept(cid), accept(cid), accept(cid));
    expect(lost).toMatchObject({ status: 404, body: { error: `transfer offer ${cid} not found` } });
  });
});

describe("buy-traffic-requests under concurrency", () => {
  it("the same tracking_id 20× at once: one request, paid once", async () => {
    const buyer = w.buyer;
    const before = await money(s, buyer);
    const body = { receiving_validator_party_id: buyer.party, domain_id: s.server.api.identity.synchronizerId, traffic_amount: 200_000, tracking_id: `traffic-${++n}`, expires_at: Number(fx.clock.now() + HOUR) };
    const grpcBody = { receivingValidatorPartyId: buyer.party, domainId: body.domain_id, trafficAmount: 200_000n, trackingId: body.tracking_id, expiresAt: BigInt(body.expires_at) };
    await paused(async () => {
      const answers = await race(20, (i) => (i % 2 === 0 ? call("POST", "/v0/wallet/buy-traffic-requests", buyer, body) : viaGrpc(grpc.wallet.createBuyTrafficRequest(grpcBody, bearer(buyer)))));
      expect(ok(answers), JSON.stringify(tally(answers))).toHaveLength(1);
      expectOnly(answers, [409, 429]);
      const [request] = ofTemplate(await acs(s, buyer), TRAFFIC_REQUEST).filter((c) => c.createArgument.trackingId === body.tracking_id);
      expect([request.contractId]).toEqual([ok(answers)[0].body.request_contract_id ?? ok(answers)[0].body.requestContractId]);
    });
    await settle();
    expect((await call("POST", `/v0/wallet/buy-traffic-requests/${body.tracking_id}/status`, buyer)).body.status).toBe("completed");
    expect(ofTemplate(await acs(s, buyer), TRAFFIC_REQUEST)).toEqual([]);
    // 0.2 MB × 16.67 USD/MB / 0.005 USD/CC
    expect(minus(before, await money(s, buyer))).toBe("666.8000000000");
  });
});
