/** Splice's top-up amount and interval (A.3), and the config's durations. */
import { describe, expect, it } from "vitest";
import { parseDurationMs } from "../../../src/config/duration.js";
import { topupPlan } from "../../../src/wallet/automation/topup-amount.js";

describe("topupPlan", () => {
  it("buys r · T bytes with T the interval rounded up to the polling interval", () => {
    expect(topupPlan(20_000, 60_000, 30_000, 200_000n)).toEqual({ amount: 1_200_000n, intervalMs: 60_000 });
    expect(topupPlan(20_000, 70_000, 30_000, 200_000n)).toEqual({ amount: 1_800_000n, intervalMs: 90_000 });
    // The interval is never shorter than one poll.
    expect(topupPlan(20_000, 1_000, 30_000, 200_000n)).toEqual({ amount: 600_000n, intervalMs: 30_000 });
  });

  it("stretches the interval until a purchase reaches minTopupAmount", () => {
    // 2,000 B/s × 60 s = 120,000 < 200,000: 100 s, rounded up to 120 s of 30 s polls.
    expect(topupPlan(2_000, 60_000, 30_000, 200_000n)).toEqual({ amount: 240_000n, intervalMs: 120_000 });
    expect(topupPlan(2_000, 60_000, 1_000, 200_000n)).toEqual({ amount: 200_000n, intervalMs: 100_000 });
  });
});

describe("parseDurationMs", () => {
  it("reads Helm's short form and ISO-8601", () => {
    expect([parseDurationMs("30s"), parseDurationMs("1m"), parseDurationMs("10m"), parseDurationMs("500ms"), parseDurationMs("1h")]).toEqual([30_000, 60_000, 600_000, 500, 3_600_000]);
    expect([parseDurationMs("PT1M"), parseDurationMs("PT1H30M"), parseDurationMs("PT0.5S"), parseDurationMs("P1D")]).toEqual([60_000, 5_400_000, 500, 86_400_000]);
    expect([parseDurationMs("1 minute"), parseDurationMs("PT"), parseDurationMs(""), parseDurationMs("P")]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
