/**
 * Mining rounds as time passes (open → summarizing → issuing → closed → archived) and the
 * rewards they issue: coupons minted into holdings while their round issues, at the issuing
 * round's rates, and expired once it closes. One network, tests in order (rounds are shared).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateNodeRecord, ExerciseNodeRecord } from "../../../src/ledger/records.js";
import {
  AppRewardCoupon,
  IssuingMiningRound,
  UnclaimedReward,
  ValidatorLivenessActivityRecord,
  ValidatorRewardCoupon,
  ValidatorRight,
  type TransferInput,
} from "../../../src/templates/splice/index.js";
import { amuletInput, configFile, refused, startCc, TICK, type CcFixture } from "../../support/cc-fixture.js";

const DAY = 86_400_000_000n;

let fx: CcFixture;
beforeAll(async () => {
  // The validator's wallet automation would mint its coupons itself; these tests mint by hand.
  fx = await startCc(configFile({ automation: { collectRewards: false, mergeHoldings: false, renewPreapprovals: false } }));
});
afterAll(() => fx.stop());

const entity = (templateId: string) => templateId.split(":").pop();
const roundOf = (payload: unknown) => BigInt((payload as { round: { number: string } }).round.number);

async function roundNumbers() {
  const s = await fx.network();
  return {
    open: s.openRounds.map((r) => r.payload.round.number),
    issuing: s.issuingRounds.map((r) => r.payload.round.number),
    closed: s.closedRounds.map((r) => r.payload.round.number),
  };
}

describe("mining rounds", () => {
  it("start with rounds 0 and 1 open and 2 opening one tick later", async () => {
    expect(await roundNumbers()).toEqual({ open: [0n, 1n, 2n], issuing: [], closed: [] });
    const s = await fx.network();
    const [r0, r1, r2] = s.openRounds.map((r) => r.payload);
    expect(r0.opensAt).toBe(r1.opensAt);
    expect(r0.targetClosesAt - r0.opensAt).toBe(TICK);
    expect(r2.opensAt).toBe(r0.targetClosesAt);
    expect(r2.targetClosesAt - r2.opensAt).toBe(2n * TICK);
    expect((await fx.openRound()).number).toBe(1n);
  });

  it("advance one round per tick: summarize and start issuing the oldest, close it three ticks later", async () => {
    await fx.advance(TICK);
    expect(await roundNumbers()).toEqual({ open: [1n, 2n, 3n], issuing: [0n], closed: [] });
    const [issuing0] = (await fx.network()).issuingRounds;
    expect(issuing0.payload.opensAt).toBe(fx.clock.now() + TICK);
    expect(issuing0.payload.targetClosesAt).toBe(fx.clock.now() + 3n * TICK);
    await fx.advance(TICK);
    expect(await roundNumbers()).toEqual({ open: [2n, 3n, 4n], issuing: [0n, 1n], closed: [] });
    await fx.advance(TICK);
    expect(await roundNumbers()).toEqual({ open: [3n, 4n, 5n], issuing: [0n, 1n, 2n], closed: [] });
    await fx.advance(TICK);
    // round 0 closed and, its coupons expired, archived in the same pass
    expect(await roundNumbers()).toEqual({ open: [4n, 5n, 6n], issuing: [1n, 2n, 3n], closed: [] });
  });

  it("round 0 went through every state, in order, on the ledger", async () => {
    const nodes = await fx.nodes();
    const created = new Map<string, string>();
    const steps: string[] = [];
    for (const { node } of nodes) {
      if (node.kind === "create" && /MiningRound$/.test(entity(node.templateId)!) && roundOf(node.payload) === 0n) {
        created.set(node.contractId, entity(node.templateId)!);
        steps.push(`create ${entity(node.templateId)}`);
      }
      if (node.kind === "exercise" && node.consuming && created.has(node.contractId)) steps.push(`archive ${created.get(node.contractId)}`);
    }
    expect(steps).toEqual([
      "create OpenMiningRound",
      "archive OpenMiningRound",
      "create SummarizingMiningRound",
      "archive SummarizingMiningRound",
      "create IssuingMiningRound",
      "archive IssuingMiningRound",
      "create ClosedMiningRound",
      "archive ClosedMiningRound",
    ]);
  });
});

describe("rewards", () => {
  // Round r collects: two providers' preapproval burns (validator reward coupons), the
  // validator's own burn, a featured app reward from a preapproved send through the validator,
  // and the validator's liveness record.
  let r: bigint;
  let provider: string;
  let lazy: string;
  let providerRight: string;
  let validatorRight: string;

  beforeAll(async () => {
    r = (await fx.openRound()).number;
    provider = await fx.party("provider");
    lazy = await fx.party("lazy");
    const v = fx.validator;
    providerRight = await fx.client.create([provider], ValidatorRight, { dso: fx.dso, user: provider, validator: provider });
    validatorRight = await fx.client.create([v], ValidatorRight, { dso: fx.dso, user: v, validator: v });
    const expiresAt = fx.clock.now() + 90n * DAY;
    for (const p of [provider, lazy, v]) {
      const coin = await fx.tap(p, "100");
      await fx.createPreapproval(p, await fx.party("receiver"), [amuletInput(coin)], expiresAt);
    }
    const viaValidator = await fx.createPreapproval(v, await fx.party("receiver"), [amuletInput(await fx.tap(v, "100"))], expiresAt);
    const alice = await fx.party("alice");
    await fx.send(alice, viaValidator.transferPreapprovalCid, [amuletInput(await fx.tap(alice, "10"))], "1", { featured: true });
  });

  const coupons = async <P extends { round: { number: bigint } }>(tpl: typeof ValidatorRewardCoupon | typeof AppRewardCoupon | typeof ValidatorLivenessActivityRecord, party: string) =>
    ((await fx.client.active(tpl as never, [party])) as { contractId: string; payload: P }[]).filter((c) => c.payload.round.number === r);

  it("a preapproved send through a featured provider earns it an AppRewardCoupon of the featured extra", async () => {
    const app = await coupons<{ round: { number: bigint }; featured: boolean; amount: { toString(): string }; provider: string; beneficiary: string | null }>(AppRewardCoupon, fx.validator);
    // 1 USD / 0.005 USD/CC = 200 CC of app activity
    expect(app.map((c) => [c.payload.provider, c.payload.beneficiary, c.payload.featured, c.payload.amount.toString()])).toEqual([
      [fx.validator, fx.validator, true, "200.0000000000"],
    ]);
    const vrc = await coupons<{ round: { number: bigint }; amount: { toString(): string } }>(ValidatorRewardCoupon, fx.validator);
    expect(vrc.map((c) => c.payload.amount.toString())).toEqual(["49.3150680000", "49.3150680000"]);
    expect(await coupons(ValidatorLivenessActivityRecord, fx.validator)).toHaveLength(1);
  });

  it("coupons cannot be minted before their round issues", async () => {
    const [vrc] = await coupons(ValidatorRewardCoupon, provider);
    const before = await fx.snapshot();
    await refused(
      fx.transfer([provider], { sender: provider, inputs: [{ tag: "InputValidatorRewardCoupon", value: vrc.contractId }], outputs: [] }, { validatorRights: [[provider, providerRight]] }),
      /did not contain issuing mining round found for Round \{number = \d+\}/,
    );
    expect(await fx.snapshot()).toEqual(before);
  });

  it("the issuing round's rates come from the round's totals (Splice's tranches)", async () => {
    await fx.toRound(r + 3n);
    const issuing = (await fx.client.active(IssuingMiningRound, [fx.dso])).find((i) => i.payload.round.number === r)!;
    expect(issuing.payload.opensAt).toBeLessThanOrEqual(fx.clock.now());
    // validators: 4 × 49.315068 = 197.260272 coupons, far below the tranche → the 0.2 cap;
    // faucet: one liveness record → the 2.85 USD / 0.005 = 570 cap; featured app: 0.6 + 99.4
    expect(issuing.payload.issuancePerValidatorRewardCoupon.toString()).toBe("0.2000000000");
    expect(issuing.payload.optIssuancePerValidatorFaucetCoupon?.toString()).toBe("570.0000000000");
    expect(issuing.payload.issuancePerFeaturedAppRewardCoupon.toString()).toBe("100.0000000000");
    expect(issuing.payload.issuancePerUnfeaturedAppRewardCoupon.toString()).toBe("0.6000000000");
  });

  function issuingContext(validatorRights: [string, string][]) {
    return fx.network().then((s) => ({
      issuingMiningRounds: s.issuingRounds.filter((i) => i.payload.opensAt <= fx.clock.now()).map((i) => [i.payload.round, i.contractId] as [{ number: bigint }, string]),
      validatorRights,
    }));
  }

  it("a validator reward coupon mints amount × issuancePerValidatorRewardCoupon, only by the user's validator", async () => {
    const [vrc] = await coupons(ValidatorRewardCoupon, provider);
    const input: TransferInput = { tag: "InputValidatorRewardCoupon", value: vrc.contractId };
    const mallory = await fx.party("mallory");
    await refused(
      fx.transfer([mallory], { sender: mallory, inputs: [input], outputs: [] }, await issuingContext([[provider, providerRight]])),
      // the right is the user's and validator's contract: a stranger cannot even fetch it
      /fetch of .* requires one of its stakeholders/,
    );
    await refused(fx.transfer([provider], { sender: provider, inputs: [input], outputs: [] }, await issuingContext([])), /did contain validator right for user/);
    const result = await fx.transfer([provider], { sender: provider, inputs: [input], outputs: [] }, await issuingContext([[provider, providerRight]]));
    // 49.315068 × 0.2
    expect(result.summary.inputValidatorRewardAmount.toString()).toBe("9.8630136000");
    expect(result.summary.senderChangeAmount.toString()).toBe("9.8630136000");
    const minted = (await fx.holdings(provider)).find((h) => h.contractId === result.senderChangeAmulet)!;
    expect(minted.payload.amount.initialAmount.toString()).toBe("9.8630136000");
    expect(minted.payload.amount.createdAt.number).toBe(r + 3n);
    expect(await fx.client.contract(ValidatorRewardCoupon, vrc.contractId)).toBeUndefined();
  });

  it("app reward, liveness and validator coupons mint together in one transfer", async () => {
    const [app] = await coupons(AppRewardCoupon, fx.validator);
    const [live] = await coupons(ValidatorLivenessActivityRecord, fx.validator);
    const vrcs = await coupons(ValidatorRewardCoupon, fx.validator);
    const inputs: TransferInput[] = [
      { tag: "InputAppRewardCoupon", value: app.contractId },
      { tag: "InputValidatorLivenessActivityRecord", value: live.contractId },
      ...vrcs.map((c) => ({ tag: "InputValidatorRewardCoupon" as const, value: c.contractId })),
    ];
    const v = fx.validator;
    const result = await fx.transfer([v], { sender: v, inputs, outputs: [{ receiver: v, amount: "20000" }] }, await issuingContext([[v, validatorRight]]));
    // 200 × 100; 570 faucet; 2 × 49.315068 × 0.2
    expect(result.summary.inputAppRewardAmount.toString()).toBe("20000.0000000000");
    expect(result.summary.inputValidatorFaucetAmount?.toString()).toBe("570.0000000000");
    expect(result.summary.inputValidatorRewardAmount.toString()).toBe("589.7260272000");
    expect(result.summary.senderChangeAmount.toString()).toBe("589.7260272000");
    expect(result.meta?.values.get("splice.lfdecentralizedtrust.org/tx-kind")).toBe("merge-split");
  });

  it("coupons not minted by the time their round closes expire into an UnclaimedReward", async () => {
    const [left] = await coupons(ValidatorRewardCoupon, lazy);
    expect(left).toBeDefined();
    await fx.toRound(r + 4n);
    expect(await fx.client.contract(ValidatorRewardCoupon, left.contractId)).toBeDefined();
    await fx.toRound(r + 5n);
    expect(await fx.client.contract(ValidatorRewardCoupon, left.contractId)).toBeUndefined();
    const nodes = await fx.nodes();
    const expire = nodes.find(({ node }) => node.kind === "exercise" && node.contractId === left.contractId)!.node as ExerciseNodeRecord;
    expect(expire.choice).toBe("ValidatorRewardCoupon_DsoExpire");
    const claim = nodes.filter(({ node }) => node.kind === "exercise" && node.choice === "AmuletRules_ClaimExpiredRewards");
    const mine = claim.find(({ node }) => ((node as ExerciseNodeRecord).argument as { validatorRewardCouponCids: string[] }).validatorRewardCouponCids.includes(left.contractId))!;
    const unclaimedCid = ((mine.node as ExerciseNodeRecord).result as { unclaimedRewardCid: string }).unclaimedRewardCid;
    const unclaimed = nodes.find(({ node }) => node.kind === "create" && node.contractId === unclaimedCid)!.node as CreateNodeRecord;
    // 49.315068 × 0.2: the only coupon of round r nobody minted
    expect((unclaimed.payload as { amount: string }).amount).toBe("9.8630136000");
    expect(await fx.client.contract(UnclaimedReward, unclaimedCid)).toBeDefined();
  });
});
