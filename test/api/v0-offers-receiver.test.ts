/**
 * `POST /v0/wallet/transfer-offers/{tracking_id}/status` for the receiver after the offer ended
 * (completed, rejected, withdrawn, expired, aborted), and for offers the wallet did not create
 * (on `/v2`), over real HTTP, every 200 body checked against the Splice OpenAPI. Then a restart:
 * both sides still know every offer (the log is replayed), and an unknown id is 404.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOpenApi, ResponseLog } from "../support/openapi-validator.js";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { caller, fund, onboard, type Wallet } from "./v0-coin-support.js";
import { AMULET, startWithThreeUsers, TRANSFER_OFFER, type OffersFixture, type WalletUserHandle } from "./v0-offers-support.js";

const SECOND = 1_000_000n;
const HOUR = 3600n * SECOND;
const openapi = loadOpenApi();

let o: OffersFixture;
let alice: WalletUserHandle;
let bob: WalletUserHandle;
let carol: WalletUserHandle;
let n = 0;
let makeOfferBody: ReturnType<OffersFixture["offerBody"]>;

beforeAll(async () => {
  ({ o, alice, bob, carol } = await startWithThreeUsers({ alice: "1000", carol: "1000" }));
  makeOfferBody = o.offerBody("rx", { amount: "3", description: "receiver side" });
  await o.settle();
});
afterAll(() => o?.fx.stop());

const now = () => o.fx.clock.now();
const trackingId = () => `rx-${++n}-${Math.random().toString(36).slice(2)}`;
const offerBody = (receiver: WalletUserHandle, extra: Record<string, unknown> = {}) => makeOfferBody(receiver, extra);

const createOffer = (from: WalletUserHandle, body: Record<string, unknown>) => o.createOffer(from, body);
const status = (who: WalletUserHandle, tracking: string) => o.offerStatus(who, tracking);

describe("the receiver's status after the offer ended", () => {
  it("completed: the same answer as the sender's — the transfer's transaction and the receiver's new Amulet", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    expect((await status(bob, body.tracking_id)).body).toMatchObject({ status: "created", contract_id: cid });
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, bob.token)).status).toBe(200);
    await o.settle();
    const mine = await status(bob, body.tracking_id);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toEqual({ status: "completed", transaction_id: expect.any(String), contract_id: expect.any(String) });
    expect((await status(alice, body.tracking_id)).body).toEqual(mine.body);
    const amulet = (await o.acs(bob, AMULET)).find((c) => c.contractId === mine.body.contract_id);
    expect(amulet?.createArgument).toMatchObject({ owner: bob.party, amount: { initialAmount: "3.0000000000" } });
    const tx = await o.update(bob, mine.body.transaction_id);
    expect(tx.events[0]).toMatchObject({ kind: "ExercisedEvent", choice: "AcceptedTransferOffer_Complete" });
  });

  it("completed before the receiver ever asked", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, bob.token);
    await o.settle();
    expect((await status(bob, body.tracking_id)).body).toMatchObject({ status: "completed" });
  });

  it("rejected by the receiver: failed/rejected for both sides", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/reject`, bob.token)).status).toBe(200);
    expect((await status(bob, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "rejected" });
    expect((await status(alice, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "rejected" });
  });

  it("withdrawn by the sender: failed/withdrawn with the sender's reason", async () => {
    const body = offerBody(bob);
    const cid = await createOffer(alice, body);
    expect((await o.call("POST", `/v0/wallet/transfer-offers/${cid}/withdraw`, alice.token)).status).toBe(200);
    expect((await status(bob, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "withdrawn", withdrawn_reason: "withdrawn by the sender" });
  });

  it("expired: failed/expired once past its expiry, and after the sender's wallet archived it", async () => {
    const body = offerBody(bob, { expires_at: Number(now() + 10n * SECOND) });
    const cid = await createOffer(alice, body);
    await o.paused(async () => {
      o.fx.clock.set(now(), now() + 11n * SECOND);
      expect((await status(bob, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "expired" });
    });
    await o.settle();
    expect((await o.acs(bob, TRANSFER_OFFER)).map((c) => c.contractId)).not.toContain(cid);
    expect((await status(bob, body.tracking_id)).body).toEqual({ status: "failed", failure_kind: "expired" });
  });

  it("accepted but the sender cannot pay: aborted by its wallet, failed/withdrawn with the reason", async () => {
    const poor = await o.onboard("poor");
    const body = offerBody(bob, { amount: "5000" });
    const cid = await createOffer(poor, body);
    const accepted = await o.call("POST", `/v0/wallet/transfer-offers/${cid}/accept`, bob.token);
    expect((await status(bob, body.tracking_id)).body).toEqual({ status: "accepted", transaction_id: expect.any(String), contract_id: accepted.body.accepted_offer_contract_id });
    await o.settle();
    expect((await status(bob, body.tracking_id)).body).toEqual({
      status: "failed",
      failure_kind: "withdrawn",
      withdrawn_reason: "insufficient funds: 5000.0000000000 CC requested, 0.0000000000 CC available",
    });
  });

  it("accepted for a USD amount no CC amount can hold: aborted with the reason, and the sender's other offers still complete", async () => {
    // A hostile review: the conversion overflowed outside the refusal handling, so the sender's
    // accepted offers were never settled and a warning was logged every tick.
    const accepted = (tracking: string, amount: { amount: string; unit: string }) => ({
      CreateCommand: {
        templateId: "#splice-wallet:Splice.Wallet.TransferOffer:AcceptedTransferOffer",
        createArguments: { sender: carol.party, receiver: carol.party, dso: o.fx.dso, amount, expiresAt: new Date(Number((now() + HOUR) / 1000n)).toISOString(), trackingId: tracking },
      },
    });
    const [huge, fine] = [trackingId(), trackingId()];
    const r = await o.fx.t.json(
      "POST",
      "/v2/commands/submit-and-wait",
      { commands: [accepted(huge, { amount: "9999999999999999999999999999.9999999999", unit: "USDUnit" }), accepted(fine, { amount: "1.0", unit: "AmuletUnit" })], commandId: trackingId(), actAs: [carol.party] },
      carol.token,
    );
    expect(r.status, r.text).toBe(200);
    await o.settle();
    expect((await status(carol, huge)).body).toMatchObject({ status: "failed", failure_kind: "withdrawn", withdrawn_reason: expect.stringContaining("numeric overflow") });
    expect((await status(carol, fine)).body).toMatchObject({ status: "completed" });
  });

  it("offers created on /v2 (no tracked create): both sides follow them to the end", async () => {
    const tracking = trackingId();
    const offer = {
      sender: alice.party,
      receiver: bob.party,
      dso: o.fx.dso,
      amount: { amount: "1.0", unit: "AmuletUnit" },
      description: "via /v2",
      expiresAt: new Date(Number((now() + HOUR) / 1000n)).toISOString(),
      trackingId: tracking,
    };
    const r = await o.fx.t.json(
      "POST",
      "/v2/commands/submit-and-wait-for-transaction",
      { commands: { commands: [{ CreateCommand: { templateId: TRANSFER_OFFER, createArguments: offer } }], commandId: trackingId(), actAs: [alice.party] } },
      alice.token,
    );
    expect(r.status, r.text).toBe(200);
    const cid = r.body.transaction.events[0].CreatedEvent.contractId as string;
    expect((await status(alice, tracking)).body).toMatchObject({ status: "created", contract_id: cid });
    await o.call("POST", `/v0/wallet/transfer-offers/${cid}/reject`, bob.token);
    expect((await status(alice, tracking)).body).toEqual({ status: "failed", failure_kind: "rejected" });
    expect((await status(bob, tracking)).body).toEqual({ status: "failed", failure_kind: "rejected" });
  });

  it("one tracking id from two senders: the receiver sees the open offer first; each sender its own", async () => {
    const tracking = trackingId();
    const first = await createOffer(alice, offerBody(bob, { tracking_id: tracking }));
    await o.call("POST", `/v0/wallet/transfer-offers/${first}/reject`, bob.token);
    const second = await createOffer(carol, offerBody(bob, { tracking_id: tracking }));
    expect((await status(bob, tracking)).body).toMatchObject({ status: "created", contract_id: second });
    expect((await status(alice, tracking)).body).toEqual({ status: "failed", failure_kind: "rejected" });
    expect((await status(carol, tracking)).body).toMatchObject({ status: "created", contract_id: second });
  });

  it("a third party gets 404", async () => {
    const body = offerBody(bob);
    await createOffer(alice, body);
    expect((await status(carol, body.tracking_id)).status).toBe(404);
  });
});

describe("after a restart", () => {
  let dir: string;
  let s: TestServer | undefined;
  const log = new ResponseLog();
  afterAll(async () => {
    await s?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("both sides still get the status of offers that ended before the restart and of those still open", async () => {
    dir = mkdtempSync(join(tmpdir(), "ccwallet-restart-"));
    s = await startTestServer({}, dir);
    let call = caller(s, log);
    const [sender, receiver]: Wallet[] = [await onboard(s, "sender"), await onboard(s, "receiver")];
    await fund(s, sender.party, "100");
    const offer = (tracking_id: string) => ({ receiver_party_id: receiver.party, amount: "1", description: "", expires_at: Date.now() * 1000 + 3_600_000_000, tracking_id });
    const statusOf = (w: Wallet, id: string) => call("POST", `/v0/wallet/transfer-offers/${id}/status`, w);
    const ended = (await call("POST", "/v0/wallet/transfer-offers", sender, offer("ended"))).body.offer_contract_id;
    await call("POST", `/v0/wallet/transfer-offers/${ended}/accept`, receiver);
    await s.server.network.automation.runNow();
    const done = (await statusOf(receiver, "ended")).body;
    expect(done.status).toBe("completed");
    const open = (await call("POST", "/v0/wallet/transfer-offers", sender, offer("open"))).body.offer_contract_id;
    await s.stop();

    s = await startTestServer({}, dir);
    call = caller(s, log);
    expect((await statusOf(sender, "ended")).body).toEqual(done); // followed through the ledger
    expect((await statusOf(receiver, "ended")).body).toEqual(done); // replayed from the stored log
    expect((await statusOf(receiver, "never-made")).status).toBe(404);
    expect((await statusOf(receiver, "open")).body).toMatchObject({ status: "created", contract_id: open });
    await call("POST", `/v0/wallet/transfer-offers/${open}/accept`, receiver);
    await s.server.network.automation.runNow();
    expect((await statusOf(receiver, "open")).body).toMatchObject({ status: "completed" });
    expect((await statusOf(receiver, "open")).body).toEqual((await statusOf(sender, "open")).body);
  });

  it.skipIf(!openapi)("every 200 body conforms", () => {
    expect(log.check(openapi!).problems).toEqual([]);
  });
});

describeOpenApiConformance(() => o.log, { title: "every 200 body above conforms, and every error body is {error}" });
