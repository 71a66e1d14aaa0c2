import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCc, type CcFixture } from "../../support/cc-fixture.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

describe("cc smoke", () => {
  it("taps and advances rounds", async () => {
    const alice = await fx.party("alice");
    await fx.tap(alice, "100");
    const h = await fx.holdings(alice);
    expect(h.map((x) => x.payload.amount.initialAmount.toString())).toEqual(["100.0000000000"]);
    expect((await fx.openRound()).number).toBe(1n);
    await fx.toRound(5n);
    const s = await fx.network();
    expect(s.openRounds.map((r) => r.payload.round.number)).toEqual([4n, 5n, 6n]);
    expect(s.issuingRounds.length).toBeGreaterThan(0);
  });
});
