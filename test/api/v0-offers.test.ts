/**
 * Transfer offers over real HTTP: `POST/GET /v0/wallet/transfer-offers`, the tracking-id status,
 * accept / reject / withdraw (path- and body-addressed), `GET /v0/wallet/accepted-transfer-offers`
 * and the sender's wallet completing accepted offers on its own. Each action is checked on `/v2`
 * (active contracts, the transaction by id, the wallet's completions) and every 200 body against
 * the Splice OpenAPI. Static time: expiries are reached by moving ledger time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { ACCEPTED_TRANSFER_OFFER, AMULET, startWithThreeUsers, TRANSFER_OFFER, type OffersFixture, type WalletUserHandle } from "./v0-offers-support.js";

const SECOND = 1_000_000n;
const HOUR = 3600n * SECOND;

let o: OffersFixture;
let alice: WalletUserHandle;
let bob: WalletUserHandle;
let carol: WalletUserHandle;
let n = 0;
let makeOfferBody: ReturnType<OffersFixture["offerBody"]>;

beforeAll(async () => {
  ({ o, alice, bob, carol } = await startWithThreeUsers({ alice: "1000" }));
  makeOfferBody = o.offerBody("track", { amount: "10.5", description: "lunch" });
  await o.settle();
});
afterAll(() => o?.fx.stop());

const now = () => o.fx.clock.now();
const trackingId = () => `track-${++n}-${Math.random().toString(36).slice(2)}`;
const offerBody = (receiver: WalletUserHandle, extra: Record<string, unknown> = {}) => makeOfferBody(receiver, extra);

const createOffer = (from: WalletUserHandle, body: Record<string, unknown>) => o.createOffer(from, body);
const status = (who: WalletUserHandle, tracking: string) => o.offerStatus(who, tracking);

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
    expect((await status(bob, body.tracking_id)).body).toEqual(done.body); // the receiver's log covers the offer too
    const bobsAmulet = (await o.acs(bob, AMULET)).find((c) => c.contractId === done.body.contract_id);
    expect(bobsAmulet?.createArgument).toMatchObject({ owner: bob.party, amount: { initialAmount: "10.5000000000" } });
    const completeTx = await o.update(alice, done.body.transaction_id);
    expect(completeTx.events[0]).toMatchObject({ kind: "ExercisedEvent", choice: "AcceptedTransferOffer_Complete", contractId: accepted });
    expect(completeTx.events.some((e) => e.choice === "AmuletRules_Transfer")).toBe(true);
    expect(await o.balanceOf(bob.party)).toEqual(["10.5000000000"]);
  });
});

describe("tracking id: exactly once", () => {
  it("a second create with the same tracking id is 409 once created, even after the offer ended; nothing new on the ledger", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    const again = await o.call("POST", "/v0/wallet/transfer-offers", alice.token, { ...body, amount: "99" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already been created/);
    const offers = (await o.acs(alice, TRANSFER_OFFER)).filter((c) => c.createArgument.trackingId === body.tracking_id);
    expect(offers.map((c) => c.contractId)).toEqual([cid]);
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/reject`, bob.token)).status).toBe(200);
    expect((await o.call("POST", "/v0/wallet/transfer-offers", alice.token, body)).status).toBe(409);
    expect((await o.acs(alice, TRANSFER_OFFER)).filter((c) => c.createArgument.trackingId === body.tracking_id)).toEqual([]);
    // another sender may use the same tracking id: the key is (sender, tracking id)
    expect((await o.call("POST", "/v0/wallet/transfer-offers", bob.token, { ...body, receiver_party_id: alice.party })).status).toBe(200);
  });

  it("while the first create is in flight a second is 429; once it is committed, 409; one offer", async () => {
    const body = offerBody(bob);
    // Hold the first create's commit at the store port, so it is provably in flight.
    const store = o.fx.t.server.store;
    const commit = store.commit.bind(store);
    let reached!: () => void;
    const atCommit = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    store.commit = async (request) => {
      if (request.completion.commandId === `transfer-offer:${body.tracking_id}`) {
        reached();
        await gate;
      }
      return commit(request);
    };
    try {
      const first = o.call("POST", "/v0/wallet/transfer-offers", alice.token, body);
      await atCommit;
      const second = await o.call("POST", "/v0/wallet/transfer-offers", alice.token, body);
      expect(second).toMatchObject({ status: 429, body: { error: `a transfer offer with tracking id "${body.tracking_id}" is being processed; retry later` } });
      release();
      expect((await first).status).toBe(200);
    } finally {
      store.commit = commit;
      release();
    }
    const third = await o.call("POST", "/v0/wallet/transfer-offers", alice.token, body);
    expect(third).toMatchObject({ status: 409, body: { error: `a transfer offer with tracking id "${body.tracking_id}" has already been created; check its status` } });
    expect((await o.acs(alice, TRANSFER_OFFER)).filter((c) => c.createArgument.trackingId === body.tracking_id)).toHaveLength(1);
  });

  it("many concurrent creates with one tracking id: exactly one offer, the others 409 or 429", async () => {
    const body = offerBody(bob);
    const results = await Promise.all(Array.from({ length: 8 }, () => o.call("POST", "/v0/wallet/transfer-offers", alice.token, body)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(1);
    expect(statuses.every((x) => x === 200 || x === 409 || x === 429)).toBe(true);
    expect((await o.acs(alice, TRANSFER_OFFER)).filter((c) => c.createArgument.trackingId === body.tracking_id)).toHaveLength(1);
  });

  it("a refused create leaves the tracking id free", async () => {
    const body = offerBody(bob, { expires_at: Number(now()) });
    expect((await o.call("POST", "/v0/wallet/transfer-offers", alice.token, body)).status).toBe(400);
    expect((await o.call("POST", "/v0/wallet/transfer-offers", alice.token, { ...body, expires_at: Number(now() + HOUR) })).status).toBe(200);
  });

  it("tracking ids that are not command-id characters work too (hashed into the command id)", async () => {
    const body = offerBody(bob, { tracking_id: "ünïcode.tracking/id?" + n });
    const cid = await createOffer(alice, body);
    expect((await status(alice, body.tracking_id as string)).body).toMatchObject({ status: "created", contract_id: cid });
    expect((await o.call("POST", "/v0/wallet/transfer-offers", alice.token, body)).status).toBe(409);
  });
});

describe("create refusals: documented status, {error}, nothing on the ledger", () => {
  it("refuses bad amounts, expiries, receivers and texts with 400", async () => {
    const before = (await o.acs(alice, TRANSFER_OFFER)).length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ amount: "0" }, /amount: must be greater than zero/],
      [{ amount: "-1" }, /amount: must be greater than zero/],
      [{ amount: "0.0000000000" }, /amount: must be greater than zero/],
      [{ amount: "ten" }, /amount: not a decimal number/],
      [{ amount: "" }, /amount: not a decimal number/],
      [{ amount: "1.00000000001" }, /amount: more than 10 decimal places/],
      [{ expires_at: Number(now()) }, /expires_at: .* is not in the future/],
      [{ expires_at: Number(now() - SECOND) }, /expires_at: .* is not in the future/],
      [{ expires_at: -1 }, /expires_at: .* is not in the future/],
      [{ receiver_party_id: "nobody::1220abcd" }, /receiver_party_id: party nobody::1220abcd does not exist/],
      [{ receiver_party_id: "not a party" }, /receiver_party_id: "not a party" is not a party id/],
      [{ tracking_id: "" }, /tracking_id: must not be empty/],
      [{ tracking_id: "x".repeat(280) }, /tracking_id: must be shorter than 280 characters/],
      [{ description: "d".repeat(280) }, /description: must be shorter than 280 characters/],
      [{ amount: 10 }, /amount: expected a string, got number 10/],
      [{ expires_at: "soon" }, /expires_at: expected an integer/],
      [{ memo: "x" }, /memo: unknown field/],
    ];
    for (const [patch, error] of cases) {
      const r = await o.call("POST", "/v0/wallet/transfer-offers", alice.token, offerBody(bob, patch));
      expect({ patch, status: r.status }).toEqual({ patch, status: 400 });
      expect(r.body.error).toMatch(error);
    }
    const { tracking_id: _, ...missing } = offerBody(bob);
    expect((await o.call("POST", "/v0/wallet/transfer-offers", alice.token, missing)).body).toEqual({ error: "Invalid request: tracking_id: missing required field" });
    expect((await o.call("POST", "/v0/wallet/transfer-offers", alice.token, "{not json")).status).toBe(400);
    expect((await o.acs(alice, TRANSFER_OFFER)).length).toBe(before);
  });

  it("answers 401/403 for callers without a wallet here", async () => {
    expect((await o.call("POST", "/v0/wallet/transfer-offers", null, offerBody(bob))).status).toBe(401);
    expect((await o.call("POST", "/v0/wallet/transfer-offers", await o.fx.t.token("stranger"), offerBody(bob))).status).toBe(403);
  });
});

describe("status", () => {
  it("answers 404 for an unknown tracking id", async () => {
    const r = await status(alice, "never-used");
    expect(r).toMatchObject({ status: 404, body: { error: 'no transfer offer with tracking id "never-used" is known' } });
  });

  it("rejected by the receiver: failed/rejected; the offer is archived on the ledger", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    const r = await o.call("POST", `/v0/wallet/transfer-offers/${cid}/reject`, bob.token);
    expect(r).toMatchObject({ status: 200, body: {} });
    expect((await o.acs(bob, TRANSFER_OFFER)).map((c) => c.contractId)).not.toContain(cid);
    expect((await status(alice, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "rejected" });
  });

  it("withdrawn by the sender: failed/withdrawn with the reason", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/withdraw`, alice.token)).status).toBe(200);
    expect((await o.acs(alice, TRANSFER_OFFER)).map((c) => c.contractId)).not.toContain(cid);
    expect((await status(alice, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "withdrawn", withdrawn_reason: "withdrawn by the sender" });
  });

  it("expired: failed/expired at once, archived by the sender's wallet, and no longer acceptable", async () => {
    const body = offerBody(bob, { expires_at: Number(now() + 10n * SECOND) });
    const cid = await createOffer(alice, body);
    await o.paused(async () => {
      o.fx.clock.set(now(), now() + 11n * SECOND);
      expect((await status(alice, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "expired" });
      const late = await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, bob.token);
      expect(late).toMatchObject({ status: 400, body: { error: `transfer offer ${cid} has expired` } });
    });
    await o.settle();
    expect((await o.acs(bob, TRANSFER_OFFER)).map((c) => c.contractId)).not.toContain(cid);
    expect((await status(alice, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "expired" });
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, bob.token)).status).toBe(404);
  });

  it("an accepted offer the sender cannot pay: aborted by its wallet, failed/withdrawn with the reason; nothing paid", async () => {
    const body = offerBody(alice, { amount: "5000" });
    const cid = await createOffer(carol, body);
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, alice.token)).status).toBe(200);
    const aliceBefore = await o.balanceOf(alice.party);
    await o.settle();
    const st = await status(carol, body.tracking_id);
    expect(st.body).toEqual({ status: "failed", failure_kind: "withdrawn", withdrawn_reason: "insufficient funds: 5000.0000000000 CC requested, 0.0000000000 CC available" });
    expect(await o.balanceOf(alice.party)).toEqual(aliceBefore);
    expect(await o.acs(carol, ACCEPTED_TRANSFER_OFFER)).toEqual([]);
  });
});

describe("status lookups", () => {
  it("finds the wallet's own actions by their command ids, visible in the wallet's completions", async () => {
    const body = offerBody(bob);
    const end = await o.ledgerEnd();
    const cid = await createOffer(alice, body);
    const accepted = (await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, bob.token)).body.accepted_offer_contract_id;
    await o.settle();
    const done = (await status(alice, body.tracking_id)).body;
    expect(done.status).toBe("completed");
    const mine = (await o.completions(alice.party, end)).filter((c) => c.commandId.endsWith(cid) || c.commandId.endsWith(accepted) || c.commandId.endsWith(body.tracking_id));
    expect(mine.map((c) => c.commandId)).toEqual([`transfer-offer:${body.tracking_id}`, `accepted-transfer-offer-complete:${accepted}`]);
    expect(mine[1].updateId).toBe(done.transaction_id);
    const bobs = (await o.completions(bob.party, end)).filter((c) => c.commandId.endsWith(cid));
    expect(bobs.map((c) => c.commandId)).toEqual([`transfer-offer-accept:${cid}`]);
  });

  it("follows an action taken outside the wallet (a reject submitted on /v2)", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    const reject = await o.fx.t.json(
      "POST",
      "/v2/commands/submit-and-wait",
      { commands: [{ ExerciseCommand: { templateId: TRANSFER_OFFER, contractId: cid, choice: "TransferOffer_Reject", choiceArgument: {} } }], commandId: trackingId(), actAs: [bob.party] },
      bob.token,
    );
    expect(reject.status, reject.text).toBe(200);
    expect((await status(alice, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "rejected" });
  });

  it("completes several accepted offers of one sender in one pass with disjoint inputs; aborts only what the wallet cannot cover", async () => {
    const dave = await o.onboard("dave");
    for (let i = 0; i < 4; i++) await o.fx.tap(dave.party, "300");
    await o.settle();
    const small = [offerBody(bob, { amount: "250" }), offerBody(bob, { amount: "250" }), offerBody(carol, { amount: "250" })];
    const big = offerBody(carol, { amount: "1000" });
    const cids: string[] = [];
    for (const b of [...small, big]) cids.push(await createOffer(dave, b));
    await o.paused(async () => {
      for (const [i, cid] of cids.entries()) {
        const receiver = i === 0 || i === 1 ? bob : carol;
        expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, receiver.token)).status).toBe(200);
      }
    });
    await o.settle();
    for (const b of small) expect((await status(dave, b.tracking_id)).body.status).toBe("completed");
    // Each completion took its own 300 holding (disjoint inputs, one pass); 1200 - 750 = 450 left,
    // so the 1000 offer cannot be covered by the whole wallet.
    expect((await status(dave, big.tracking_id)).body).toEqual({
      status: "failed",
      failure_kind: "withdrawn",
      withdrawn_reason: "insufficient funds: 1000.0000000000 CC requested, 450.0000000000 CC available",
    });
    expect(await o.balanceOf(dave.party)).toEqual(["300.0000000000", "50.0000000000", "50.0000000000", "50.0000000000"]);
  });
});

describe("accept / reject / withdraw refusals: 404, nothing changes", () => {
  it("unknown and malformed ids, third parties, and the wrong side", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    const cases: [string, WalletUserHandle, RegExp][] = [
      [`/v0/wallet/transfer-offers/00ab/accept`, bob, /^transfer offer 00ab not found$/],
      [`/v0/wallet/transfer-offers/not-hex/reject`, bob, /^transfer offer not-hex not found$/],
      [`/v0/wallet/transfer-offers/${cid}/accept`, carol, new RegExp(`^transfer offer ${cid} not found$`)],
      [`/v0/wallet/transfer-offers/${cid}/reject`, carol, new RegExp(`^transfer offer ${cid} not found$`)],
      [`/v0/wallet/transfer-offers/${cid}/withdraw`, carol, new RegExp(`^transfer offer ${cid} not found$`)],
      [`/v0/wallet/transfer-offers/${cid}/withdraw`, bob, /only its sender can withdraw it/],
      [`/v0/wallet/transfer-offers/${cid}/accept`, alice, /only its receiver can accept or reject it/],
      [`/v0/wallet/transfer-offers/${cid}/reject`, alice, /only its receiver can accept or reject it/],
    ];
    for (const [path, who, error] of cases) {
      const r = await o.call("POST", path, who.token);
      expect({ path, who: who.name, status: r.status }).toEqual({ path, who: who.name, status: 404 });
      expect(r.body.error).toMatch(error);
    }
    // an amulet is not an offer
    const [amulet] = await o.acs(alice, AMULET);
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${amulet.contractId}/accept`, alice.token)).status).toBe(404);
    expect((await o.acs(bob, TRANSFER_OFFER)).map((c) => c.contractId)).toContain(cid);
    expect((await status(alice, body.tracking_id)).body.status).toBe("created");
  });

  it("the body-addressed aliases act on the same offers", async () => {
    const a = await createOffer(alice, offerBody(bob));
    const b = await createOffer(alice, offerBody(bob));
    const c = await createOffer(alice, offerBody(bob));
    const accept = await o.call("POST", "/v0/wallet/transfer-offers/accept", bob.token, { contract_id: a }, false);
    expect(accept.status).toBe(200);
    expect(accept.body.accepted_offer_contract_id).toEqual(expect.any(String));
    expect((await o.call("POST", "/api/validator/v0/wallet/transfer-offers/reject", bob.token, { contract_id: b }, false)).status).toBe(200);
    expect((await o.call("POST", "/v0/wallet/transfer-offers/withdraw", alice.token, { contract_id: c }, false)).status).toBe(200);
    expect((await o.call("POST", "/v0/wallet/transfer-offers/withdraw", bob.token, { contract_id: "00ab" }, false)).status).toBe(404);
    const open = (await o.acs(bob, TRANSFER_OFFER)).map((x) => x.contractId);
    for (const cid of [a, b, c]) expect(open).not.toContain(cid);
  });
});

describe("USD offers created on /v2 are completed too", () => {
  it("converts at the open round's price", async () => {
    const erin = await o.onboard("erin");
    const payload = {
      sender: alice.party,
      receiver: erin.party,
      dso: o.fx.dso,
      amount: { amount: "0.05", unit: "USDUnit" },
      description: "",
      expiresAt: new Date(Number((now() + HOUR) / 1000n)).toISOString(),
      trackingId: trackingId(),
    };
    const create = await o.fx.t.json(
      "POST",
      "/v2/commands/submit-and-wait-for-transaction",
      { commands: { commands: [{ CreateCommand: { templateId: TRANSFER_OFFER, createArguments: payload } }], commandId: trackingId(), actAs: [alice.party] } },
      alice.token,
    );
    expect(create.status, create.text).toBe(200);
    const cid = create.body.transaction.events[0].CreatedEvent.contractId;
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, erin.token)).status).toBe(200);
    await o.settle();
    // 0.05 USD / 0.005 USD per CC
    expect(await o.balanceOf(erin.party)).toEqual(["10.0000000000"]);
  });
});

describeOpenApiConformance(() => o.log, { title: "every 200 body above conforms, and every error body is {error}" });
