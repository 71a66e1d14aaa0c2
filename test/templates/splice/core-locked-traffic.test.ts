/** LockedAmulet (unlock, owner expiry of the lock, dust expiry) and AmuletRules_BuyMemberTraffic. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choiceOf } from "../../support/choice-of.js";
import {
  Amulet,
  LockedAmulet,
  MemberTraffic,
  OpenMiningRound,
  ValidatorRewardCoupon,
  type LockedAmuletPayload,
  type TransferResult,
} from "../../../src/templates/splice/index.js";
import { amuletInput, N, refused, startCc, TICK, type CcFixture } from "../../support/cc-fixture.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

async function lock(owner: string, holder: string, amount: string, expiresAt: bigint): Promise<string> {
  const cid = await fx.tap(owner, amount);
  const result: TransferResult = await fx.transfer([owner, holder], {
    sender: owner,
    inputs: [amuletInput(cid)],
    outputs: [{ receiver: owner, amount, lock: { holders: [holder, owner, holder], expiresAt, optContext: "escrow" } }],
  });
  const [created] = result.createdAmulets;
  expect(created.tag).toBe("TransferResultLockedAmulet");
  return created.value;
}

const lockedChoice = <R>(name: string) => choiceOf<LockedAmuletPayload, unknown, R>(LockedAmulet, name);

describe("LockedAmulet", () => {
  it("keeps the holding's amount and records deduplicated holders (receiver dropped)", async () => {
    const [alice, bob] = [await fx.party("alice"), await fx.party("bob")];
    const expiresAt = fx.clock.now() + 2n * TICK;
    const cid = await lock(alice, bob, "10", expiresAt);
    const locked = (await fx.client.contract(LockedAmulet, cid))!.payload;
    expect(locked.lock).toEqual({ holders: [bob], expiresAt, optContext: "escrow" });
    expect(locked.amulet.amount.initialAmount.toString()).toBe("10.0000000000");
    expect(await fx.balance(alice)).toEqual(N("0")); // locked CC is not in the unlocked balance
  });

  it("unlocks with the owner and every holder, not the owner alone", async () => {
    const [alice, bob] = [await fx.party("alice"), await fx.party("bob")];
    const cid = await lock(alice, bob, "10", fx.clock.now() + 2n * TICK);
    const open = await fx.openRound();
    const before = await fx.snapshot();
    await refused(fx.client.exercise([alice], LockedAmulet, cid, lockedChoice("LockedAmulet_Unlock"), { openRoundCid: open.contractId }), /requires authorizers/);
    await refused(fx.client.exercise([alice], LockedAmulet, cid, lockedChoice("LockedAmulet_UnlockV2"), {}), /requires authorizers/);
    expect(await fx.snapshot()).toEqual(before);
    // A round signed by a party posing as the DSO (its own price and number) is not this DSO's.
    const forgedRound = await fx.client.create([alice], OpenMiningRound, { ...(await fx.client.contract(OpenMiningRound, open.contractId))!.payload, dso: alice });
    const forgedSnapshot = await fx.snapshot();
    await refused(fx.client.exercise([alice, bob], LockedAmulet, cid, lockedChoice("LockedAmulet_Unlock"), { openRoundCid: forgedRound }), /OpenMiningRound belongs to this DSO/);
    expect(await fx.snapshot()).toEqual(forgedSnapshot);
    const { result } = await fx.client.exercise([alice, bob], LockedAmulet, cid, lockedChoice<{ amuletSum: { amulet: string; round: { number: bigint } } }>("LockedAmulet_Unlock"), {
      openRoundCid: open.contractId,
    });
    expect(result.amuletSum.round.number).toBe(open.number);
    const amulet = (await fx.client.contract(Amulet, result.amuletSum.amulet))!.payload;
    expect(amulet.owner).toBe(alice);
    expect(amulet.amount.initialAmount.toString()).toBe("10.0000000000");
    expect(await fx.client.contract(LockedAmulet, cid)).toBeUndefined();
    const cid2 = await lock(alice, bob, "5", fx.clock.now() + 2n * TICK);
    const v2 = await fx.client.exercise([alice, bob], LockedAmulet, cid2, lockedChoice<{ amuletCid: string }>("LockedAmulet_UnlockV2"), {});
    expect((await fx.client.contract(Amulet, v2.result.amuletCid))?.payload.amount.initialAmount.toString()).toBe("5.0000000000");
  });

  it("the owner alone takes it back once the lock has expired, not before", async () => {
    const [alice, bob] = [await fx.party("alice"), await fx.party("bob")];
    const expiresAt = fx.clock.now() + TICK;
    const cid = await lock(alice, bob, "10", expiresAt);
    const cid2 = await lock(alice, bob, "4", expiresAt);
    const before = await fx.snapshot();
    const open = await fx.openRound();
    await refused(fx.client.exercise([alice], LockedAmulet, cid, lockedChoice("LockedAmulet_OwnerExpireLock"), { openRoundCid: open.contractId }), /Lock\.expiresAt/);
    await refused(fx.client.exercise([alice], LockedAmulet, cid2, lockedChoice("LockedAmulet_OwnerExpireLockV2"), {}), /Lock\.expiresAt/);
    await refused(fx.client.exercise([bob], LockedAmulet, cid, lockedChoice("LockedAmulet_OwnerExpireLockV2"), {}), /requires authorizers/);
    expect(await fx.snapshot()).toEqual(before);
    await fx.advance(TICK);
    const now = await fx.openRound();
    const { result } = await fx.client.exercise([alice], LockedAmulet, cid, lockedChoice<{ amuletSum: { amulet: string } }>("LockedAmulet_OwnerExpireLock"), {
      openRoundCid: now.contractId,
    });
    expect((await fx.client.contract(Amulet, result.amuletSum.amulet))?.payload.owner).toBe(alice);
    await fx.client.exercise([alice], LockedAmulet, cid2, lockedChoice("LockedAmulet_OwnerExpireLockV2"), {});
    expect((await fx.balance(alice)).toString()).toBe(N("14").sub(N("0.0038051800").mulInt(2n)).toString());
  });

  it("is expired by the DSO as dust once worth nothing (its lock having ended before)", async () => {
    const [alice, bob] = [await fx.party("alice"), await fx.party("bob")];
    const start = (await fx.openRound()).number;
    // 0.02 / 0.00380518 = 5.26 → worth nothing from start + 6; the lock must end well before that
    const cid = await lock(alice, bob, "0.02", fx.clock.now() + 2n * TICK);
    await fx.toRound(start + 5n);
    expect(await fx.client.contract(LockedAmulet, cid)).toBeDefined();
    await fx.toRound(start + 6n);
    expect(await fx.client.contract(LockedAmulet, cid)).toBeUndefined();
    const expire = (await fx.nodes()).find(({ node }) => node.kind === "exercise" && node.contractId === cid);
    expect(expire?.node.kind === "exercise" && expire.node.choice).toBe("LockedAmulet_ExpireAmulet");
  });

  it("is not expired as dust while its lock holds: the choice refuses, and the DSO's pass expires the rest", async () => {
    const [alice, bob] = [await fx.party("alice"), await fx.party("bob")];
    const start = (await fx.openRound()).number;
    const ended = await lock(alice, bob, "0.02", fx.clock.now() + 2n * TICK);
    // A transfer cannot lock past the holding's expiry; made directly by all its signatories, it can.
    const amulet = (await fx.client.contract(LockedAmulet, ended))!.payload.amulet;
    const held = await fx.client.create([alice, bob, fx.dso], LockedAmulet, { amulet, lock: { holders: [bob], expiresAt: fx.clock.now() + 100n * TICK, optContext: null } });
    await fx.toRound(start + 6n);
    expect(await fx.client.contract(LockedAmulet, ended)).toBeUndefined();
    expect(await fx.client.contract(LockedAmulet, held)).toBeDefined();
    const round = await fx.openRound();
    await refused(fx.client.exercise([fx.dso], LockedAmulet, held, lockedChoice("LockedAmulet_ExpireAmulet"), { roundCid: round.contractId }), /Lock\.expiresAt/);
  });
});

describe("AmuletRules_BuyMemberTraffic", () => {
  let synchronizerId: string;
  beforeAll(async () => {
    synchronizerId = (await fx.network()).rules.payload.configSchedule.initialValue.decentralizedSynchronizer.activeSynchronizer;
  });

  async function buy(provider: string, inputs: string[], trafficAmount: bigint, sync = synchronizerId) {
    const open = await fx.openRound();
    return fx.rules<{ amuletPaid: { toString(): string }; purchasedTraffic: string; senderChangeAmulet: string | null; round: { number: bigint } }>(
      [provider],
      "AmuletRules_BuyMemberTraffic",
      {
        inputs: inputs.map(amuletInput),
        context: { openMiningRound: open.contractId, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null },
        provider,
        memberId: "PAR::participant1::1220aa",
        synchronizerId: sync,
        migrationId: 0n,
        trafficAmount,
      },
    );
  }

  it("burns trafficAmount / 1e6 × 16.67 USD at 0.005 USD/CC and records the traffic", async () => {
    const provider = await fx.party("validator");
    const cid = await fx.tap(provider, "1000");
    const result = await buy(provider, [cid], 200_000n);
    // 0.2 MB × 16.67 = 3.334 USD; / 0.005 = 666.8 CC
    expect(result.amuletPaid.toString()).toBe("666.8000000000");
    expect((await fx.balance(provider)).toString()).toBe("333.2000000000");
    const traffic = (await fx.client.contract(MemberTraffic, result.purchasedTraffic))!.payload;
    expect(traffic).toMatchObject({ dso: fx.dso, memberId: "PAR::participant1::1220aa", synchronizerId, migrationId: 0n, totalPurchased: 200_000n, numPurchases: 1n });
    expect(traffic.amuletSpent.toString()).toBe("666.8000000000");
    expect(traffic.usdSpent.toString()).toBe("3.3340000000");
    const [coupon] = await fx.client.active(ValidatorRewardCoupon, [provider]);
    expect(coupon.payload.amount.toString()).toBe("666.8000000000");
  });

  it("refuses an unknown synchronizer, a top-up below the minimum, and too little CC", async () => {
    const provider = await fx.party("validator");
    const cid = await fx.tap(provider, "100");
    const before = await fx.snapshot();
    await refused(buy(provider, [cid], 200_000n, "other::1220"), /ITR_UnknownSynchronizer \{synchronizerId = "other::1220"\}/);
    await refused(buy(provider, [cid], 199_999n), /ITR_InsufficientTopupAmount \{requestedTopupAmount = 199999, minTopupAmount = 200000\}/);
    await refused(buy(provider, [cid], 200_000n), /ITR_InsufficientFunds \{missingAmount = 566\.8000000000\}/);
    expect(await fx.snapshot()).toEqual(before);
  });
});
