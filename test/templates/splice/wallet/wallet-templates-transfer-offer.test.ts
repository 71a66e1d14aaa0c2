import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../../../src/ledger/numeric.js";
import { AppRewardCoupon, FeaturedAppRight } from "../../../../src/templates/splice/index.js";
import { AcceptedTransferOffer, TransferOffer, type PaymentAmount, type TransferOfferPayload } from "../../../../src/templates/splice/wallet/index.js";
import { startCc, type CcFixture } from "../../../support/cc-fixture.js";
import { act, amounts, amuletInputs, DAY, expectRefused, paymentContext, recordOf, SECOND } from "./wallet-templates-helpers.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

const usd = (amount: string): PaymentAmount => ({ amount: Numeric.parse(amount), unit: "USDUnit" });
const cc = (amount: string): PaymentAmount => ({ amount: Numeric.parse(amount), unit: "AmuletUnit" });

async function offer(sender: string, receiver: string, amount: PaymentAmount, ttl = DAY, trackingId = `track-${Math.random()}`) {
  const payload: TransferOfferPayload = { sender, receiver, dso: fx.dso, amount, description: "lunch", expiresAt: fx.clock.now() + ttl, trackingId };
  return { cid: await fx.client.create([sender], TransferOffer, payload), trackingId };
}

async function parties() {
  return { alice: await fx.party("alice"), bob: await fx.party("bob"), carol: await fx.party("carol") };
}

const accept = (receiver: string, cid: string) => act<TransferOfferPayload, { acceptedTransferOffer: string }>(fx, [receiver], TransferOffer, cid, "TransferOffer_Accept", {});

async function complete(sender: string, acceptedCid: string, inputs: string[], featured: string | null = null) {
  return act(fx, [sender, fx.validator], AcceptedTransferOffer, acceptedCid, "AcceptedTransferOffer_Complete", {
    inputs: amuletInputs(inputs),
    transferContext: await paymentContext(fx, featured),
    walletProvider: fx.validator,
  });
}

describe("TransferOffer", () => {
  it("offer, accept and complete a USD amount: converted at the open round's price", async () => {
    const { alice, bob } = await parties();
    const tapped = await fx.tap(alice, "100");
    const { cid, trackingId } = await offer(alice, bob, usd("0.25"));
    const { acceptedTransferOffer } = await accept(bob, cid);
    expect(await fx.client.contract(TransferOffer, cid)).toBeUndefined();
    const accepted = await fx.client.contract(AcceptedTransferOffer, acceptedTransferOffer);
    expect([...(accepted?.record.signatories ?? [])].sort()).toEqual([alice, bob].sort());
    const result = (await complete(alice, acceptedTransferOffer, [tapped])) as {
      trackingInfo: { trackingId: string; sender: string; receiver: string };
      senderChangeAmulet: string | null;
    };
    expect(result.trackingInfo).toEqual({ trackingId, sender: alice, receiver: bob });
    // 0.25 USD / 0.005 USD/CC = 50 CC; no rounds passed since the tap, so no holding fee.
    expect(await amounts(fx, bob)).toEqual(["50.0000000000"]);
    expect(await amounts(fx, alice)).toEqual(["50.0000000000"]);
    expect((await fx.holdings(alice))[0]!.contractId).toBe(result.senderChangeAmulet);
    expect(await fx.client.contract(AcceptedTransferOffer, acceptedTransferOffer)).toBeUndefined();
  });

  it("completing two rounds after the tap charges the input's holding fee to the sender", async () => {
    const { alice, bob } = await parties();
    const tapped = await fx.tap(alice, "100");
    const tapRound = (await fx.openRound()).number;
    const { cid } = await offer(alice, bob, cc("30"), 30n * DAY);
    const { acceptedTransferOffer } = await accept(bob, cid);
    await fx.toRound(tapRound + 2n);
    await complete(alice, acceptedTransferOffer, [tapped]);
    // fee = 2 rounds × 0.00380518 = 0.00761036; change = 100 − 0.00761036 − 30
    expect(await amounts(fx, bob)).toEqual(["30.0000000000"]);
    expect(await amounts(fx, alice)).toEqual(["69.9923896400"]);
  });

  it("a featured wallet provider earns the featured app reward of the completion", async () => {
    const { alice, bob } = await parties();
    const tapped = await fx.tap(alice, "10");
    const [right] = await fx.client.active(FeaturedAppRight, [fx.validator]);
    const { cid } = await offer(alice, bob, cc("1"));
    const { acceptedTransferOffer } = await accept(bob, cid);
    const before = (await fx.client.active(AppRewardCoupon, [fx.validator])).length;
    await complete(alice, acceptedTransferOffer, [tapped], right!.contractId);
    const coupons = await fx.client.active(AppRewardCoupon, [fx.validator]);
    expect(coupons.length).toBe(before + 1);
    // extraFeaturedAppRewardAmount 1 USD / 0.005 USD/CC
    expect(coupons.map((c) => c.payload.amount.toString())).toContain("200.0000000000");
  });

  it("reject, withdraw and abort end the workflow with the tracking info", async () => {
    const { alice, bob } = await parties();
    const a = await offer(alice, bob, cc("1"));
    expect(await act(fx, [bob], TransferOffer, a.cid, "TransferOffer_Reject", {})).toEqual({ trackingInfo: { trackingId: a.trackingId, sender: alice, receiver: bob } });
    const b = await offer(alice, bob, cc("1"));
    expect(await act(fx, [alice], TransferOffer, b.cid, "TransferOffer_Withdraw", { reason: "changed my mind" })).toMatchObject({ trackingInfo: { trackingId: b.trackingId } });
    const c = await offer(alice, bob, cc("1"));
    const accepted = (await accept(bob, c.cid)).acceptedTransferOffer;
    expect(await act(fx, [bob], AcceptedTransferOffer, accepted, "AcceptedTransferOffer_Withdraw", { reason: "no thanks" })).toMatchObject({
      trackingInfo: { trackingId: c.trackingId },
    });
    const d = await offer(alice, bob, cc("1"));
    const accepted2 = (await accept(bob, d.cid)).acceptedTransferOffer;
    expect(await act(fx, [alice], AcceptedTransferOffer, accepted2, "AcceptedTransferOffer_Abort", { reason: "oops" })).toMatchObject({
      trackingInfo: { trackingId: d.trackingId },
    });
    for (const cid of [a.cid, b.cid, c.cid, d.cid]) expect(await fx.client.contract(TransferOffer, cid)).toBeUndefined();
    for (const cid of [accepted, accepted2]) expect(await fx.client.contract(AcceptedTransferOffer, cid)).toBeUndefined();
  });

  it("refuses accepting after expiry, after a withdraw, twice, or by a third party", async () => {
    const { alice, bob, carol } = await parties();
    await fx.tap(alice, "10");
    const all = [alice, bob, carol];
    const late = await offer(alice, bob, cc("1"), 60n * SECOND);
    await fx.advance(61n * SECOND);
    await expectRefused(fx, all, "DAML_INTERPRETATION_ERROR", "Offer has not expired", () => accept(bob, late.cid));

    const withdrawn = await offer(alice, bob, cc("1"));
    await act(fx, [alice], TransferOffer, withdrawn.cid, "TransferOffer_Withdraw", { reason: "r" });
    await expectRefused(fx, all, "CONTRACT_NOT_FOUND", withdrawn.cid, () => accept(bob, withdrawn.cid));

    const twice = await offer(alice, bob, cc("1"));
    await accept(bob, twice.cid);
    await expectRefused(fx, all, "CONTRACT_NOT_FOUND", twice.cid, () => accept(bob, twice.cid));

    const third = await offer(alice, bob, cc("1"));
    await expectRefused(fx, all, "CONTRACT_NOT_FOUND", third.cid, () => accept(carol, third.cid));
    // Even with the contract disclosed to her, Carol is not the receiver.
    const disclosed = [await recordOf(fx, TransferOffer, third.cid)];
    await expectRefused(fx, all, "DAML_AUTHORIZATION_ERROR", "requires authorizers", () =>
      act(fx, [carol], TransferOffer, third.cid, "TransferOffer_Accept", {}, disclosed),
    );
    expect(await fx.client.contract(TransferOffer, third.cid)).toBeDefined();
  });

  it("refuses the receiver withdrawing an offer and the sender rejecting it", async () => {
    const { alice, bob } = await parties();
    const o = await offer(alice, bob, cc("1"));
    await expectRefused(fx, [alice, bob], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () =>
      act(fx, [bob], TransferOffer, o.cid, "TransferOffer_Withdraw", { reason: "r" }),
    );
    await expectRefused(fx, [alice, bob], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () => act(fx, [alice], TransferOffer, o.cid, "TransferOffer_Reject", {}));
    expect(await fx.client.contract(TransferOffer, o.cid)).toBeDefined();
  });

  it("refuses completing after expiry, without funds, or without the wallet provider", async () => {
    const { alice, bob } = await parties();
    const tapped = await fx.tap(alice, "10");
    const expiring = await offer(alice, bob, cc("1"), 60n * SECOND);
    const accepted = (await accept(bob, expiring.cid)).acceptedTransferOffer;
    await fx.advance(61n * SECOND);
    await expectRefused(fx, [alice, bob], "DAML_INTERPRETATION_ERROR", "Offer has not expired", () => complete(alice, accepted, [tapped]));

    const big = await offer(alice, bob, cc("11"));
    const acceptedBig = (await accept(bob, big.cid)).acceptedTransferOffer;
    await expectRefused(fx, [alice, bob], "DAML_INTERPRETATION_ERROR", "ITR_InsufficientFunds", () => complete(alice, acceptedBig, [tapped]));

    await expectRefused(fx, [alice, bob], "DAML_AUTHORIZATION_ERROR", "requires authorizers", async () =>
      act(fx, [alice], AcceptedTransferOffer, acceptedBig, "AcceptedTransferOffer_Complete", {
        inputs: amuletInputs([tapped]),
        transferContext: await paymentContext(fx),
        walletProvider: fx.validator,
      }),
    );
    // Nothing was spent: the accepted offer can still be completed in full.
    const small = await offer(alice, bob, cc("4"));
    await complete(alice, (await accept(bob, small.cid)).acceptedTransferOffer, [tapped]);
    expect(await amounts(fx, bob)).toEqual(["4.0000000000"]);
  });

  it("expires only after expiresAt and only by a stakeholder", async () => {
    const { alice, bob, carol } = await parties();
    const o = await offer(alice, bob, cc("1"), 60n * SECOND);
    const a = await offer(alice, bob, cc("1"), 60n * SECOND);
    const accepted = (await accept(bob, a.cid)).acceptedTransferOffer;
    await expectRefused(fx, [alice, bob], "DAML_INTERPRETATION_ERROR", "Contract has expired", () =>
      act(fx, [bob], TransferOffer, o.cid, "TransferOffer_Expire", { actor: bob }),
    );
    await fx.advance(61n * SECOND);
    const disclosed = [await recordOf(fx, TransferOffer, o.cid)];
    await expectRefused(fx, [alice, bob], "DAML_INTERPRETATION_ERROR", "Actor is a stakeholder", () =>
      act(fx, [carol], TransferOffer, o.cid, "TransferOffer_Expire", { actor: carol }, disclosed),
    );
    expect(await act(fx, [alice], TransferOffer, o.cid, "TransferOffer_Expire", { actor: alice })).toMatchObject({ trackingInfo: { trackingId: o.trackingId } });
    expect(await act(fx, [bob], AcceptedTransferOffer, accepted, "AcceptedTransferOffer_Expire", { actor: bob })).toMatchObject({
      trackingInfo: { trackingId: a.trackingId },
    });
  });

  it("refuses descriptions of 280 characters or more", async () => {
    const { alice, bob } = await parties();
    const payload: TransferOfferPayload = { sender: alice, receiver: bob, dso: fx.dso, amount: cc("1"), description: "x".repeat(280), expiresAt: fx.clock.now() + DAY, trackingId: "t" };
    await expectRefused(fx, [alice], "DAML_INTERPRETATION_ERROR", "Template precondition violated", () => fx.client.create([alice], TransferOffer, payload));
  });
});
