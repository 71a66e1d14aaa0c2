/** The base-rate bucket and extra traffic, as pure arithmetic. */
import { describe, expect, it } from "vitest";
import { BASE_EVENT_COST, trafficCostOf } from "../../../src/network/traffic/traffic-cost.js";
import { initialState, refilled, refund, spend } from "../../../src/network/traffic/traffic-state.js";
import type { NodeRecord } from "../../../src/ledger/records.js";

const SECOND = 1_000_000n;
const rate = { burstAmount: 1_200n, burstWindowMicros: 1_200n * SECOND };

describe("traffic state", () => {
  it("pays from the bucket first, then from extra traffic, and refuses what neither covers", () => {
    const s0 = initialState(rate, 0n);
    const a = spend(s0, rate, 500n, 1_000n, 0n)!;
    expect(a).toMatchObject({ fromBase: 1_000n, fromExtra: 0n, state: { baseRemainder: 200n, extraConsumed: 0n } });
    const b = spend(a.state, rate, 500n, 600n, 0n)!;
    expect(b).toMatchObject({ fromBase: 200n, fromExtra: 400n, state: { baseRemainder: 0n, extraConsumed: 400n } });
    expect(spend(b.state, rate, 500n, 101n, 0n)).toBeUndefined();
    expect(spend(b.state, rate, 500n, 100n, 0n)?.state.extraConsumed).toBe(500n);
  });

  it("refills the bucket evenly over the window, never above the burst amount", () => {
    const empty = { extraConsumed: 0n, baseRemainder: 0n, at: 0n };
    expect(refilled(empty, rate, 300n * SECOND).baseRemainder).toBe(300n);
    expect(refilled(empty, rate, 5_000n * SECOND).baseRemainder).toBe(1_200n);
    // A clock set backwards refills nothing.
    expect(refilled({ ...empty, at: 10n * SECOND }, rate, 0n).baseRemainder).toBe(0n);
  });

  it("gives back exactly what an uncommitted transaction took", () => {
    const s0 = initialState(rate, 0n);
    const spent = spend(s0, rate, 500n, 1_500n, 0n)!;
    expect(refund(spent.state, rate, spent)).toEqual(s0);
  });

  it("costs 5,000 plus the bytes of the nodes' JSON", () => {
    const nodes = [{ kind: "create", nodeId: 0, contractId: "00ab", templateId: "p:M:T", packageName: "p", payload: { x: "é" }, signatories: [], observers: [], witnesses: [] }] as NodeRecord[];
    expect(trafficCostOf(nodes)).toBe(BASE_EVENT_COST + BigInt(Buffer.byteLength(JSON.stringify(nodes))));
    expect(trafficCostOf([])).toBe(5_002n);
  });
});
