/**
 * Traffic top-ups in static time (A.3): with `targetThroughput` set the operator buys the computed
 * amount once per interval and never more often, only while the purchased traffic left is below
 * that amount; on DevNet a tap of exactly the cost pays for it; off DevNet, an operator without
 * the CC warns and buys nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../../src/ledger/numeric.js";
import { GrpcCode, LedgerError } from "../../../src/ledger/errors.js";
import { AmuletRules, AmuletRules_DevNet_Tap } from "../../../src/templates/splice/amulet-rules.js";
import { MemberTraffic } from "../../../src/templates/splice/decentralized-synchronizer.js";
import { topUpTraffic } from "../../../src/wallet/automation/top-up-traffic.js";
import type { AutomationLog } from "../../../src/wallet/automation/automation-log.js";
import { TopupSchema } from "../../../src/config/topup.js";
import { configFile, startCc, type CcFixture } from "../../support/cc-fixture.js";

const SECOND = 1_000_000n;
// 500 B/s over "1m" = 30,000 bytes per top-up (minTopupAmount lowered to 10,000 so it applies).
const network = { baseRateBurstAmountBytes: 60_000, baseRateBurstWindowSeconds: 1200, minTopupAmountBytes: 10_000 };
const topup = { enabled: true, targetThroughput: 500, minTopupInterval: "1m" };

describe("top-ups on DevNet", () => {
  let fx: CcFixture;
  let alice: string;
  beforeAll(async () => {
    fx = await startCc(configFile({ network, automation: { topup } }));
    await fx.t.server.network.automation.settled();
    alice = await fx.party("alice");
  });
  afterAll(() => fx?.stop());

  const member = () => fx.t.server.api.identity.participantId;
  const purchases = async () => (await fx.client.active(MemberTraffic, [fx.dso])).filter((t) => t.payload.memberId === member()).map((t) => t.payload.totalPurchased);
  const meter = () => fx.t.server.api.traffic!;
  /** Spends traffic until less than one top-up of purchased traffic is left. */
  async function consume(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const s = (await meter().status(fx.clock.now()))!;
      if (s.purchased - s.extraConsumed < 30_000n) return;
      await fx.tap(alice, "1");
    }
    throw new Error("traffic never ran low");
  }

  it("buys 30,000 bytes at start, paid by a tap of exactly its cost", async () => {
    expect(await purchases()).toEqual([30_000n]);
    const nodes = (await fx.nodes()).map((n) => n.node);
    const tap = nodes.find((n) => n.kind === "exercise" && n.choice === "AmuletRules_DevNet_Tap" && (n.argument as { receiver: string }).receiver === fx.validator);
    const buy = nodes.find((n) => n.kind === "exercise" && n.choice === "AmuletRules_BuyMemberTraffic");
    // 0.03 MB × 16.67 USD/MB / 0.005 USD/CC = 100.02 CC
    expect(tap?.kind === "exercise" && (tap.argument as { amount: string }).amount).toBe("100.0200000000");
    expect(buy?.kind === "exercise" && (buy.result as { amuletPaid: string }).amuletPaid).toBe("100.0200000000");
    expect((await fx.balance(fx.validator)).toString()).toBe("0.0000000000");
  });

  it("buys again once per interval, never sooner, and only when the purchase is running low", async () => {
    await fx.advance(120n * SECOND);
    expect(await purchases()).toHaveLength(1); // plenty left: no purchase however long ago the last one was
    await consume();
    await fx.advance(1n * SECOND);
    expect(await purchases()).toHaveLength(2); // the interval had passed: bought at once
    await consume();
    await fx.advance(30n * SECOND);
    expect(await purchases()).toHaveLength(2);
    await fx.advance(29n * SECOND);
    expect(await purchases()).toHaveLength(2);
    await fx.advance(1n * SECOND);
    expect(await purchases()).toEqual([30_000n, 30_000n, 30_000n]);
  });
});

describe("reserved traffic", () => {
  let fx: CcFixture;
  beforeAll(async () => {
    fx = await startCc(configFile({ network, automation: { topup: { ...topup, reservedTraffic: 200_000 } } }));
    await fx.t.server.network.automation.settled();
  });
  afterAll(() => fx?.stop());

  it("refuses the operator's own submissions but its top-ups while less than the reserve is left", async () => {
    const operator = fx.t.server.wallet.client;
    const s = await fx.network();
    const open = await fx.openRound();
    const tap = operator.exercise([fx.validator], AmuletRules, s.rules.contractId, AmuletRules_DevNet_Tap, { receiver: fx.validator, amount: Numeric.parse("1"), openRound: open.contractId }, { disclosed: await fx.disclosed() });
    const error = await tap.then(() => undefined, (e: unknown) => e as LedgerError);
    expect(error?.code).toBe("TRAFFIC_BELOW_RESERVED");
    expect(error?.grpcCode).toBe(GrpcCode.ABORTED);
    expect(error?.message).toMatch(/^Traffic balance below reserved traffic amount \(\d+ < 200000\)$/);
    // The top-up itself went through, and another user's submissions are not held back.
    expect((await fx.client.active(MemberTraffic, [fx.dso])).map((t) => t.payload.totalPurchased)).toEqual([30_000n]);
    await expect(fx.tap(await fx.party("bob"), "1")).resolves.toMatch(/^00/);
  });
});

describe("top-ups off DevNet", () => {
  let fx: CcFixture;
  beforeAll(async () => {
    fx = await startCc(configFile({ network: { ...network, isDevNet: false }, automation: { topup } }));
    await fx.t.server.network.automation.settled();
  });
  afterAll(() => fx?.stop());

  it("warns and buys nothing when the operator's wallet cannot pay", async () => {
    const warnings: string[] = [];
    const log: AutomationLog = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (_f, m) => warnings.push(m) };
    const ctx = { deps: fx.t.server.wallet, config: TopupSchema.parse(topup), pollMs: 1000, traffic: fx.t.server.api.traffic!, log };
    expect(await topUpTraffic(ctx, await fx.network(), fx.clock.now())).toBe(false);
    expect(warnings).toEqual([
      "Insufficient funds to buy configured traffic amount. Please ensure that the validator's wallet has enough amulets to purchase 0.03 MB of traffic to continue operations.",
    ]);
    expect(await fx.client.active(MemberTraffic, [fx.dso])).toEqual([]);
    expect((await fx.balance(fx.validator)).toString()).toBe(Numeric.zero.toString());
  });
});
