/**
 * The wallet automation's reward collection and holding merges, on the operator's wallet (a
 * wallet party from the start) under static time: coupons are minted once their round issues,
 * at most 100 inputs a transfer, and merges keep every unit of CC.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExerciseNodeRecord } from "../../../src/ledger/records.js";
import { Numeric } from "../../../src/ledger/numeric.js";
import { AppRewardCoupon, IssuingMiningRound } from "../../../src/templates/splice/index.js";
import { amuletInput, configFile, startCc, type CcFixture } from "../../support/cc-fixture.js";

const COUPONS = 230;
const DAY = 86_400_000_000n;

describe("reward collection (many coupons)", () => {
  let fx: CcFixture;
  beforeAll(async () => {
    // Merges off: the minted holdings stay as the collection made them.
    fx = await startCc(configFile({ automation: { mergeHoldings: false } }));
  });
  afterAll(() => fx.stop());

  it(`mints all ${COUPONS} of the operator's app coupons of a round once it issues, 100 inputs at most per transfer`, { timeout: 60_000 }, async () => {
    const v = fx.validator;
    const r = (await fx.openRound()).number;
    const receiver = await fx.party("receiver");
    const pre = await fx.createPreapproval(v, receiver, [amuletInput(await fx.tap(v, "100"))], fx.clock.now() + 90n * DAY);
    const alice = await fx.party("alice");
    let change = await fx.tap(alice, "1000");
    for (let i = 0; i < COUPONS; i++) {
      const sent = await fx.send(alice, pre.transferPreapprovalCid, [amuletInput(change)], "1", { featured: true });
      change = sent.result.senderChangeAmulet!;
    }
    const ofRound = async () => (await fx.client.active(AppRewardCoupon, [v])).filter((c) => c.payload.round.number === r);
    const coupons = await ofRound();
    expect(coupons).toHaveLength(COUPONS);
    const start = (await fx.nodes()).length;

    // Round r's issuing round opens with round r + 3 (the fixture settles the automation on every tick).
    await fx.toRound(r + 3n);
    await fx.t.server.network.automation.settled();
    const issuing = (await fx.client.active(IssuingMiningRound, [fx.dso])).find((i) => i.payload.round.number === r);
    expect(issuing, "round r is issuing, not yet closed").toBeDefined();
    expect(await ofRound()).toEqual([]);

    // The collections: the operator's own transfers with coupon inputs, each at most 100 inputs.
    const collections = (await fx.nodes())
      .slice(start)
      .map(({ node }) => node)
      .filter((n): n is ExerciseNodeRecord => n.kind === "exercise" && n.choice === "AmuletRules_Transfer")
      .map((n) => ({ ...(n.argument as { transfer: { sender: string; inputs: { tag: string }[] } }), result: n.result as { summary: { inputAppRewardAmount: unknown } } }))
      .filter((a) => a.transfer.sender === v && a.transfer.inputs.some((i) => i.tag === "InputAppRewardCoupon"));
    const appInputs = collections.flatMap((a) => a.transfer.inputs).filter((i) => i.tag === "InputAppRewardCoupon");
    expect(appInputs).toHaveLength(COUPONS);
    const sizes = collections.map((a) => a.transfer.inputs.length);
    const couponInputs = sizes.reduce((x, y) => x + y, 0);
    expect(sizes).toEqual([100, 100, couponInputs - 200]);

    // Every coupon minted at its round's featured rate, to the unit.
    const rate = issuing!.payload.issuancePerFeaturedAppRewardCoupon;
    const expected = coupons.reduce((sum, c) => sum.add(c.payload.amount.mul(rate)), Numeric.zero);
    const minted = collections.reduce((sum, a) => sum.add(Numeric.parse(String(a.result.summary.inputAppRewardAmount))), Numeric.zero);
    expect(minted.toString()).toBe(expected.toString());
  });
});

describe("holding merges", () => {
  let fx: CcFixture;
  beforeAll(async () => {
    fx = await startCc();
  });
  afterAll(() => fx.stop());

  it("leaves 10 holdings alone and merges 11 into one, keeping every unit", async () => {
    const v = fx.validator;
    const settle = () => fx.t.server.network.automation.settled();
    await settle();
    const start = await fx.holdings(v);
    expect(start.length).toBeLessThanOrEqual(10);
    const total = async () => (await fx.holdings(v)).reduce((sum, h) => sum.add(h.payload.amount.initialAmount), Numeric.zero);
    const before = await total();
    for (let i = start.length; i < 10; i++) await fx.tap(v, `${i + 1}.0000000001`);
    await fx.t.server.network.automation.runNow();
    expect(await fx.holdings(v)).toHaveLength(10);
    const ten = await total();

    // The new holding alone is what tells the merge step to look (no runNow here).
    await fx.tap(v, "0.5");
    let merged = await fx.holdings(v);
    for (const deadline = Date.now() + 10_000; merged.length > 1 && Date.now() < deadline; merged = await fx.holdings(v)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(merged).toHaveLength(1);
    // Same round: no holding fee accrued, so the merged holding is the exact sum.
    expect(merged[0].payload.amount.initialAmount.toString()).toBe(ten.add(Numeric.parse("0.5")).toString());
    expect(ten.cmp(before)).toBeGreaterThan(0);
  });
});
