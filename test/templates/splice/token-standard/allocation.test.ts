/**
 * CC allocations through the token standard as a wallet and a settlement app see them: the
 * registry functions give the factory, choice contexts and disclosed contracts; everything else
 * goes through the ledger. Amounts at scale 10 as in token-standard.test.ts (price 0.005 USD/CC,
 * 0.0038051800 CC holding fee per round; the lock takes 4 × the holding fee of its lifetime on top).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../../../src/ledger/numeric.js";
import { AmuletAllocation, AppRewardCoupon, LockedAmulet } from "../../../../src/templates/splice/index.js";
import { actOnAllocation, allocate, allocationCidOf, allocationSpec } from "../../../support/allocation-client.js";
import { startCc, type CcFixture } from "../../../support/cc-fixture.js";
import { ensureFactory, HOUR, snapshot } from "../../../support/token-standard-client.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
  await ensureFactory(fx);
});
afterAll(() => fx.stop());

const RATE = Numeric.parse("0.0038051800");
/** 4 × holding fees of one hour: 4 × (0.0000190259 × 144 × (1/24)) / 0.005. */
const RESERVE_1H = Numeric.parse("0.0913243200");

const cidsOf = async (party: string) => (await fx.holdings(party)).map((h) => h.contractId);
const amounts = async (party: string) => (await fx.holdings(party)).map((h) => h.payload.amount.initialAmount.toString()).sort();
const total = async (party: string) => (await fx.holdings(party)).reduce((a, h) => a.add(h.payload.amount.initialAmount), Numeric.zero);

/** A sender with 100 CC, a receiver and a settlement venue (the validator: it has a featured app right). */
async function parties() {
  const alice = await fx.party("alice");
  const bob = await fx.party("bob");
  await fx.tap(alice, "100");
  return { alice, bob, venue: fx.validator };
}

describe("token standard allocations", () => {
  it("allocate locks the leg for the DSO until settleBefore, and execute-transfer moves it to the receiver", async () => {
    const { alice, bob, venue } = await parties();
    const spec = allocationSpec(fx, { sender: alice, receiver: bob, executor: venue, amount: "10" });
    const result = await allocate(fx, spec, await cidsOf(alice));
    const cid = allocationCidOf(result);
    const allocation = await fx.client.contract(AmuletAllocation, cid);
    const [locked] = await fx.client.active(LockedAmulet, [alice]);
    expect(allocation?.payload).toEqual({ lockedAmulet: locked.contractId, allocation: spec });
    expect(locked.payload.lock).toEqual({ holders: [fx.dso], expiresAt: spec.settlement.settleBefore, optContext: `allocation for transfer leg "leg-0" to '${bob}'` });
    expect(locked.payload.amulet.amount.initialAmount.toString()).toBe(Numeric.parse("10").add(RESERVE_1H).toString());
    expect(result.senderChangeCids).toEqual(await cidsOf(alice));
    expect(await amounts(alice)).toEqual([Numeric.parse("90").sub(RESERVE_1H).toString()]);

    const r0 = (await fx.openRound()).number;
    await fx.toRound(r0 + 2n);
    const coupons = (await fx.client.active(AppRewardCoupon, [venue])).length;
    const done = await actOnAllocation(fx, [venue, alice, bob], cid, "execute-transfer");
    expect(done.receiverHoldingCids).toEqual(await cidsOf(bob));
    expect(await amounts(bob)).toEqual(["10.0000000000"]);
    // The sender's change: the reserve less two rounds of holding fees on the locked CC.
    const change = RESERVE_1H.sub(RATE.mulInt(2n));
    expect(await amounts(alice)).toEqual([change.toString(), Numeric.parse("90").sub(RESERVE_1H).toString()].sort());
    expect(done.senderHoldingCids).toHaveLength(1);
    // The executor is the transfer's provider, featured through its right in the registry's context.
    const newCoupons = (await fx.client.active(AppRewardCoupon, [venue])).slice(coupons);
    expect(newCoupons.map((c) => [c.payload.provider, c.payload.featured])).toEqual([[venue, true]]);
    expect(await fx.client.contract(AmuletAllocation, cid)).toBeUndefined();
    expect(await fx.client.active(LockedAmulet, [alice])).toEqual([]);
    // Conserved: what left alice is what bob has plus the holding fees the lock paid.
    expect((await total(alice)).add(await total(bob)).add(RATE.mulInt(2n)).toString()).toBe("100.0000000000");
  });

  it("withdraw by the sender and cancel by all three unlock the CC back to the sender", async () => {
    const { alice, bob, venue } = await parties();
    for (const [actAs, choice] of [[[alice], "withdraw"], [[venue, alice, bob], "cancel"]] as const) {
      const cid = allocationCidOf(await allocate(fx, allocationSpec(fx, { sender: alice, receiver: bob, executor: venue, amount: "10" }), await cidsOf(alice)));
      const done = await actOnAllocation(fx, actAs, cid, choice);
      expect(done.senderHoldingCids).toHaveLength(1);
      expect(await fx.client.contract(AmuletAllocation, cid)).toBeUndefined();
      expect(await fx.client.active(LockedAmulet, [alice])).toEqual([]);
      expect(await amounts(bob)).toEqual([]);
      expect((await total(alice)).toString()).toBe("100.0000000000");
    }
  });

  it("cancel needs the receiver's authority too, withdraw only the sender's", async () => {
    const { alice, bob, venue } = await parties();
    const cid = allocationCidOf(await allocate(fx, allocationSpec(fx, { sender: alice, receiver: bob, executor: venue, amount: "10" }), await cidsOf(alice)));
    await expect(actOnAllocation(fx, [venue, alice], cid, "cancel")).rejects.toThrow();
    await expect(actOnAllocation(fx, [venue], cid, "withdraw")).rejects.toThrow();
    expect(await fx.client.contract(AmuletAllocation, cid)).toBeDefined();
    await actOnAllocation(fx, [alice], cid, "withdraw");
  });

  it("execute-transfer past settleBefore fails and leaves the allocation as it was; the sender can still withdraw", async () => {
    const { alice, bob, venue } = await parties();
    const cid = allocationCidOf(await allocate(fx, allocationSpec(fx, { sender: alice, receiver: bob, executor: venue, amount: "10" }), await cidsOf(alice)));
    await fx.advance(HOUR);
    const before = await fx.snapshot();
    await expect(actOnAllocation(fx, [venue, alice, bob], cid, "execute-transfer")).rejects.toThrow(/allocation.settlement.settleBefore/);
    expect(await fx.snapshot()).toEqual(before);
    expect(await amounts(bob)).toEqual([]);
    const [locked] = await fx.client.active(LockedAmulet, [alice]);
    const back = await actOnAllocation(fx, [alice], cid, "withdraw");
    expect(back.senderHoldingCids).toHaveLength(1);
    expect(await fx.client.active(LockedAmulet, [alice])).toEqual([]);
    expect((await total(alice)).toString()).toBe(Numeric.parse("90").sub(RESERVE_1H).add(locked.payload.amulet.amount.initialAmount).toString());
  });

  it("refuses a wrong expectedAdmin, a passed allocateBefore and no input holdings, changing nothing", async () => {
    const { alice, bob, venue } = await parties();
    const holdings = await cidsOf(alice);
    // The parties' contracts only: the DSO's rounds move on with time.
    const before = await snapshot(fx, [alice, bob]);
    const spec = allocationSpec(fx, { sender: alice, receiver: bob, executor: venue, amount: "10" });
    await expect(allocate(fx, spec, holdings, bob)).rejects.toThrow(/Expected admin/);
    await expect(allocate(fx, spec, [])).rejects.toThrow(/At least one holding/);
    const late = allocationSpec(fx, { sender: alice, receiver: bob, executor: venue, amount: "10" });
    await fx.advance(HOUR / 2n);
    await expect(allocate(fx, late, holdings)).rejects.toThrow(/settlement.allocateBefore/);
    expect(await snapshot(fx, [alice, bob])).toEqual(before);
    expect(await fx.client.active(AmuletAllocation, [alice])).toEqual([]);
  });
});
