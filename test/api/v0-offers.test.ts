/**
 * Transfer offers over real HTTP: `POST/GET /v0/wallet/transfer-offers`, the tracking-id status,
 * accept / reject / withdraw (path- and body-addressed), `GET /v0/wallet/accepted-transfer-offers`
 * and the sender's wallet completing accepted offers on its own. Each action is checked on `/v2`
 * (active contracts, the transaction by id, the wallet's completions) and every 200 body against
 * the Splice OpenAPI. Static time: expiries are reached by moving ledger time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOpenApi, OPENAPI_DIR } from "../support/openapi-validator.js";
import { ACCEPTED_TRANSFER_OFFER, AMULET, startOffers, TRANSFER_OFFER, type OffersFixture, type WalletUserHandle } from "./v0-offers-support.js";

const SECOND = 1_000_000n;
const HOUR = 3600n * SECOND;
const openapi = loadOpenApi();

let o: OffersFixture;
let alice: WalletUserHandle;
let bob: WalletUserHandle;
let carol: WalletUserHandle;
let n = 0;

beforeAll(async () => {
  o = await startOffers();
  alice = await o.onboard("alice");
  bob = await o.onboard("bob");
  carol = await o.onboard("carol");
  await o.fx.tap(alice.party, "1000");
  await o.settle();
});
afterAll(() => o?.fx.stop());

const now = () => o.fx.clock.now();
const trackingId = () => `track-${++n}-${Math.random().toString(36).slice(2)}`;
const offerBody = (receiver: WalletUserHandle, extra: Record<string, unknown> = {}) => ({
  receiver_party_id: receiver.party,
  amount: "10.5",
  description: "lunch",
  expires_at: Number(now() + HOUR),
  tracking_id: trackingId(),
  ...extra,
});

async function createOffer(from: WalletUserHandle, body: Record<string, unknown>) {
  const r = await o.call("POST", "/v0/wallet/transfer-offers", from.token, body);
  expect(r.status, r.text).toBe(200);
  return r.body.offer_contract_id as string;
}

const status = (who: WalletUserHandle, tracking: string) => o.call("POST", `/v0/wallet/transfer-offers/${encodeURIComponent(tracking)}/status`, who.token);

describe("POST /v0/wallet/transfer-offers → accept → completed by the sender's wallet", () => {
  it("creates the offer on the ledger, lists it for both sides, and completes it after the receiver accepts", async () => {
    const body = offerBody(bob);
    const ledgerBefore = await o.ledgerEnd();
    const cid = await createOffer(alice, body);

    // on /v2: the receiver sees the TransferOffer with the request's fields
    const [onLedger] = (await o.acs(bob, TRANSFER_OFFER)).filter((c) => c.contractId === cid);
    expect(onLedger.createArgument).toMatchObject({
      sender: alice.party,
      receiver: bob.party,
      amount: { amount: "10.5000000000", unit: "AmuletUnit" },
      description: "lunch",
      trackingId: body.tracking_id,
    });
    const [completion] = (await o.completions(alice.party, ledgerBefore)).filter((c) => c.commandId === `transfer-offer:${body.tracking_id}`);
    expect(completion.updateId).toEqual(expect.any(String));

    for (const who of [alice, bob]) {
      const list = await o.call("GET", "/v0/wallet/transfer-offers", who.token);
      expect(list.status).toBe(200);
      const mine = (list.body.offers as any[]).find((c) => c.contract_id === cid);
      expect(mine).toMatchObject({ contract_id: cid, payload: { sender: alice.party, receiver: bob.party, trackingId: body.tracking_id } });
      expect(mine.template_id).toMatch(/^[0-9a-f]{64}:Splice\.Wallet\.TransferOffer:TransferOffer$/);
    }
    expect(((await o.call("GET", "/v0/wallet/transfer-offers", carol.token)).body.offers as any[]).map((c) => c.contract_id)).not.toContain(cid);

    const created = await status(alice, body.tracking_id);
    expect(created.body).toEqual({ status: "created", transaction_id: completion.updateId, contract_id: cid });
    expect((await status(bob, body.tracking_id)).body).toEqual(created.body);
    const createTx = await o.update(alice, completion.updateId!);
    expect(createTx.events).toEqual([expect.objectContaining({ kind: "CreatedEvent", contractId: cid })]);

    // accept with the automation paused: the accepted offer is observable
    const accepted = await o.paused(async () => {
      const r = await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, bob.token);
      expect(r.status, r.text).toBe(200);
      const acceptedCid = r.body.accepted_offer_contract_id as string;
      expect((await o.acs(bob, TRANSFER_OFFER)).map((c) => c.contractId)).not.toContain(cid);
      expect((await o.acs(alice, ACCEPTED_TRANSFER_OFFER)).map((c) => c.contractId)).toContain(acceptedCid);
      for (const who of [alice, bob]) {
        const list = await o.call("GET", "/v0/wallet/accepted-transfer-offers", who.token);
        expect((list.body.accepted_offers as any[]).map((c) => c.contract_id)).toContain(acceptedCid);
      }
      const st = await status(alice, body.tracking_id);
      expect(st.body).toMatchObject({ status: "accepted", contract_id: acceptedCid });
      const acceptTx = await o.update(bob, st.body.transaction_id);
      expect(acceptTx.events.map((e) => [e.kind, e.choice ?? e.templateId.split(":").slice(1).join(":")])).toEqual([
        ["ExercisedEvent", "TransferOffer_Accept"],
        ["CreatedEvent", "Splice.Wallet.TransferOffer:AcceptedTransferOffer"],
      ]);
      return acceptedCid;
    });

    // nobody calls anything else: the sender's wallet completes it
    await o.settle();
    expect((await o.call("GET", "/v0/wallet/accepted-transfer-offers", alice.token)).body.accepted_offers).toEqual([]);
    const done = await status(alice, body.tracking_id);
    expect(done.body).toEqual({ status: "completed", transaction_id: expect.any(String), contract_id: expect.any(String) });
    expect((await status(bob, body.tracking_id)).status).toBe(404); // the receiver created nothing here; see the notes
    const bobsAmulet = (await o.acs(bob, AMULET)).find((c) => c.contractId === done.body.contract_id);
    expect(bobsAmulet?.createArgument).toMatchObject({ owner: bob.party, amount: { initialAmount: "10.5000000000" } });
    const completeTx = await o.update(alice, done.body.transaction_id);
    expect(completeTx.events[0]).toMatchObject({ kind: "ExercisedEvent", choice: "AcceptedTransferOffer_Complete", contractId: accepted });
    expect(completeTx.events.some((e) => e.choice === "AmuletRules_Transfer")).toBe(true);
    expect(await o.balanceOf(bob.party)).toEqual(["10.5000000000"]);
  });
});

describe(`responses against the Splice OpenAPI${openapi ? "" : ` (SKIPPED: ${OPENAPI_DIR} not found)`}`, () => {
  it.skipIf(!openapi)("every 200 body above conforms, and every error body is {error}", () => {
    const ok = o.log.check(openapi!);
    expect(ok.problems).toEqual([]);
    expect(o.log.check(openapi!, (s) => s >= 400).problems).toEqual([]);
  });
});
