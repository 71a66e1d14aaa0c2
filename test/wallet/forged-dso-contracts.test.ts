/**
 * Contracts the DSO signs carry the DSO in a field (`dso`, an instrument's `admin`), and anyone
 * can sign one naming itself there and its victim (or the DSO) as observer: Daml allows it, and
 * the real DSO's automation and the wallet read them by stakeholder. Each reader must count only
 * the network's DSO's contracts, as Splice's stores do. Every case here was an attack that worked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../src/ledger/numeric.js";
import {
  Amulet,
  AppRewardCoupon,
  LockedAmulet,
  FeaturedAppRight,
  IssuingMiningRound,
  ValidatorLivenessActivityRecord,
  ValidatorRewardCoupon,
} from "../../src/templates/splice/index.js";
import { MemberTraffic } from "../../src/templates/splice/decentralized-synchronizer.js";
import { ValidatorLicense } from "../../src/templates/splice/validator-license.js";
import { readTrafficLimits } from "../../src/network/traffic/traffic-limits.js";
import { AmuletTransferInstruction } from "../../src/templates/splice/amulet-transfer-instruction.js";
import { AmuletAllocation } from "../../src/templates/splice/amulet-allocation.js";
import { expireTransferInstructions } from "../../src/dso/token-standard.js";
import { listTokenStandardTransfers } from "../../src/wallet/use-cases/list-token-standard-transfers.js";
import { sendViaPreapproval } from "../../src/wallet/use-cases/send-via-preapproval.js";
import { newWalletLocal, type WalletDeps } from "../../src/wallet/wallet-deps.js";
import { amuletInput, configFile, startCc, TICK, type CcFixture } from "../support/cc-fixture.js";

let fx: CcFixture;
let deps: WalletDeps;
let evil: string;
beforeAll(async () => {
  fx = await startCc(configFile({ automation: { collectRewards: false, mergeHoldings: false, renewPreapprovals: false } }));
  deps = { ...fx.t.server.wallet, client: fx.client, local: newWalletLocal() };
  evil = await fx.party("evil");
});
afterAll(() => fx.stop());

const N = (s: string) => Numeric.parse(s);

/** A coupon evil signs as its "dso", naming `provider` (the victim, or the DSO) as observer. */
const forgedCoupon = (provider: string, round: bigint, amount: string) =>
  fx.client.create([evil], AppRewardCoupon, { dso: evil, provider, featured: false, amount: N(amount), round: { number: round }, beneficiary: null });

/** A preapproval for `receiver` provided (and paid for) by `provider`, from one of its holdings. */
async function preapprove(receiver: string, provider: string): Promise<void> {
  const [funds] = await fx.holdings(provider);
  await fx.createPreapproval(provider, receiver, [amuletInput(funds.contractId)], fx.clock.now() + 90n * 86_400_000_000n);
}

describe("contracts signed by a party posing as the DSO", () => {
  it("forged coupons neither change a round's issuance nor stop rounds issuing (a sum past Numeric 10 among them)", async () => {
    const next = (await fx.openRound()).number;
    await forgedCoupon(fx.dso, next, "1000000000000000000000");
    await fx.client.create([evil], ValidatorRewardCoupon, { dso: evil, user: fx.dso, amount: N("1000000000000000000000"), round: { number: next } });
    await forgedCoupon(fx.dso, next + 1n, "9000000000000000000000000000");
    await forgedCoupon(fx.dso, next + 1n, "9000000000000000000000000000");
    await fx.toRound(next + 4n);
    const issuing = await fx.client.active(IssuingMiningRound, [fx.dso]);
    const of = (n: bigint) => issuing.find((i) => i.payload.round.number === n)?.payload;
    // Without coupons the rates are at their caps (the forged totals drove them to 0).
    expect(of(next)?.issuancePerUnfeaturedAppRewardCoupon.toString()).toBe("0.6000000000");
    expect(of(next)?.issuancePerValidatorRewardCoupon.toString()).toBe("0.2000000000");
    // The round whose forged coupons sum past the range issued as well (it threw every second).
    expect(of(next + 1n)?.issuancePerUnfeaturedAppRewardCoupon.toString()).toBe("0.6000000000");
  });

  it("a forged coupon for the victim is not picked as an input: its sends go through", async () => {
    const victim = await fx.party("victim");
    const receiver = await fx.party("receiver");
    await fx.tap(fx.validator, "1000");
    await fx.tap(victim, "50");
    await preapprove(receiver, fx.validator);
    const issuingRounds = (await fx.network()).issuingRounds.map((r) => r.payload.round.number);
    for (const n of issuingRounds) await forgedCoupon(victim, n, "1000");
    await fx.client.create([evil], ValidatorLivenessActivityRecord, { dso: evil, validator: victim, round: { number: issuingRounds[0] } });
    await sendViaPreapproval(deps, { sender: victim, receiver, amount: N("5"), deduplicationId: "forged-coupons" });
    const received = (await fx.holdings(receiver)).map((h) => h.payload.amount.initialAmount.toString());
    expect(received).toContain("5.0000000000");
  });

  it("a forged FeaturedAppRight for the preapproval's provider does not break a send to its receiver", async () => {
    const bob = await fx.party("bob");
    const alice = await fx.party("alice");
    await fx.tap(bob, "200");
    await fx.tap(alice, "50");
    await preapprove(bob, bob); // a self-provided preapproval: bob has no real featured right
    await fx.client.create([evil], FeaturedAppRight, { dso: evil, provider: bob });
    await sendViaPreapproval(deps, { sender: alice, receiver: bob, amount: N("3"), deduplicationId: "forged-right" });
    expect((await fx.holdings(bob)).map((h) => h.payload.amount.initialAmount.toString())).toContain("3.0000000000");
  });

  it("a forged ValidatorLicense does not stop the validator's liveness records", async () => {
    const latest = async () =>
      (await fx.client.active(ValidatorLivenessActivityRecord, [fx.validator])).filter((r) => r.payload.dso === fx.dso).reduce((m, r) => (r.payload.round.number > m ? r.payload.round.number : m), -1n);
    const before = await latest();
    await fx.client.create([evil], ValidatorLicense, {
      validator: fx.validator,
      sponsor: evil,
      dso: evil,
      faucetState: { firstReceivedFor: { number: 0n }, lastReceivedFor: { number: 999_999_999n }, numCouponsMissed: 0n },
      lastActiveAt: null,
    });
    const target = (await fx.openRound()).number + 2n;
    await fx.toRound(target);
    // One record per round goes on: the latest is for the latest open round (it stopped at the forged one's).
    expect(await latest()).toBeGreaterThan(before);
    expect(await latest()).toBe(target);
  });

  it("forged transfer instructions neither stop the DSO's expiry of its own nor show in a wallet's list", async () => {
    const victim = await fx.party("ti-victim");
    const [any] = await fx.holdings(fx.validator);
    const now = fx.clock.now();
    const forged = (receiver: string) =>
      fx.client.create([evil], AmuletTransferInstruction, {
        lockedAmulet: any.contractId,
        transfer: { sender: evil, receiver, amount: N("9999999999999999999999999999"), instrumentId: { admin: evil, id: "Amulet" }, requestedAt: now, executeBefore: now, inputHoldingCids: [], meta: { values: new Map() } },
      });
    await forged(fx.dso);
    await forged(victim);
    // It threw on the forged one ("requires authorizers"), and failed the whole batch, every second.
    expect(await expireTransferInstructions(fx.client, await fx.network(), now + 1n)).toBe(false);
    expect(await listTokenStandardTransfers(deps, victim)).toEqual([]);
  });

  it("forged coupons do not show in the wallet's coupon lists (/v0)", async () => {
    const operator = await fx.t.token("administrator");
    const onboarded = await fx.t.json("POST", "/v0/admin/users", { name: "forged-lists" }, operator);
    expect(onboarded.status, onboarded.text).toBe(200);
    await forgedCoupon(onboarded.body.party_id, (await fx.openRound()).number, "1000");
    const listed = await fx.t.json("GET", "/v0/wallet/app-reward-coupons", undefined, await fx.t.token("forged-lists"));
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.app_reward_coupons).toEqual([]);
  });

  it("a forged MemberTraffic buys the participant no traffic", async () => {
    const member = fx.t.server.api.identity.participantId;
    const limits = await readTrafficLimits(fx.t.server.store, member, fx.dso);
    expect(limits).toBeDefined();
    await fx.client.create([evil], MemberTraffic, {
      dso: evil,
      memberId: member,
      synchronizerId: limits!.synchronizerId,
      migrationId: 0n,
      totalPurchased: 1_000_000_000_000n,
      numPurchases: 1n,
      amuletSpent: N("0"),
      usdSpent: N("0"),
    });
    expect((await readTrafficLimits(fx.t.server.store, member, fx.dso))!.purchased).toBe(limits!.purchased);
  });

  it("an Amulet a party signs as its own DSO counts in no balance, amulet list or external-party balance (/v0)", async () => {
    const operator = await fx.t.token("administrator");
    const onboarded = await fx.t.json("POST", "/v0/admin/users", { name: "self-minted" }, operator);
    expect(onboarded.status, onboarded.text).toBe(200);
    const party: string = onboarded.body.party_id;
    const token = await fx.t.token("self-minted");
    await fx.tap(party, "4");
    const round = { number: (await fx.openRound()).number };
    // Owner and "dso" at once, it signs alone: Daml allows it, and it is worth nothing.
    await fx.client.create([party], Amulet, { dso: party, owner: party, amount: { initialAmount: N("9999999999999999999999999999"), createdAt: round, ratePerRound: { rate: N("0") } } });
    const balance = await fx.t.json("GET", "/v0/wallet/balance", undefined, token);
    expect(balance.status, balance.text).toBe(200);
    expect(balance.body.effective_unlocked_qty).toBe("4.0000000000");
    const amulets = await fx.t.json("GET", "/v0/wallet/amulets", undefined, token);
    expect(amulets.status, amulets.text).toBe(200);
    expect(amulets.body.amulets).toHaveLength(1);
    expect(amulets.text).not.toContain("9999999999999999999999999999");
    const external = await fx.t.json("GET", `/v0/admin/external-party/balance?party_id=${encodeURIComponent(party)}`, undefined, operator);
    expect(external.status, external.text).toBe(200);
    expect(external.body.total_unlocked_coin).toBe("4.0000000000");
  });

  it("the registry and the /v0 answers treat an instruction or allocation signed by another admin as unknown (404)", async () => {
    const victim = await fx.t.json("POST", "/v0/admin/users", { name: "ti-answer" }, await fx.t.token("administrator"));
    expect(victim.status, victim.text).toBe(200);
    const receiver: string = victim.body.party_id;
    // A real LockedAmulet of evil's (the contexts disclose it), behind both forgeries.
    const now = fx.clock.now();
    await fx.tap(evil, "20");
    const [funds] = await fx.holdings(evil);
    await fx.transfer([evil], { sender: evil, inputs: [amuletInput(funds.contractId)], outputs: [{ receiver: evil, amount: "5", lock: { holders: [evil], expiresAt: now + 10n * TICK, optContext: "forged" } }] });
    const [any] = await fx.client.active(LockedAmulet, [evil]);
    const instruction = await fx.client.create([evil], AmuletTransferInstruction, {
      lockedAmulet: any.record.contractId,
      transfer: { sender: evil, receiver, amount: N("5"), instrumentId: { admin: evil, id: "Amulet" }, requestedAt: now, executeBefore: now + 3_600_000_000n, inputHoldingCids: [], meta: { values: new Map() } },
    });
    const context = await fx.t.json("POST", `/registry/transfer-instruction/v1/${instruction}/choice-contexts/accept`, {}, null);
    expect(context.status, context.text).toBe(404);
    const accept = await fx.t.json("POST", `/v0/wallet/token-standard/transfers/${instruction}/accept`, {}, await fx.t.token("ti-answer"));
    expect(accept.status, accept.text).toBe(404);
    const meta = { values: new Map() };
    const allocation = await fx.client.create([evil], AmuletAllocation, {
      lockedAmulet: any.record.contractId,
      allocation: {
        settlement: { executor: evil, settlementRef: { id: "forged", cid: null }, requestedAt: now, allocateBefore: now + 1n, settleBefore: now + 3_600_000_000n, meta },
        transferLegId: "leg",
        transferLeg: { sender: evil, receiver, amount: N("5"), instrumentId: { admin: evil, id: "Amulet" }, meta },
      },
    });
    const executeContext = await fx.t.json("POST", `/registry/allocations/v1/${allocation}/choice-contexts/execute-transfer`, {}, null);
    expect(executeContext.status, executeContext.text).toBe(404);
  });
});
