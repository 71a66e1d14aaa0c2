/**
 * Minting delegations (reference A.8): the delegate hosted here mints the beneficiary's coupons and,
 * once the beneficiary holds at least twice `amuletMergeLimit` amulets, merges the smallest so
 * that `amuletMergeLimit` remain, through `MintingDelegation_Mint`; an expired delegation is left.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../../src/ledger/numeric.js";
import { MintingDelegation } from "../../../src/templates/splice/wallet/minting-delegation.js";
import { mintInputs } from "../../../src/wallet/automation/mint-for-delegations.js";
import type { SpendableCandidate } from "../../../src/wallet/support/transfer-inputs.js";
import { startCc, type CcFixture } from "../../support/cc-fixture.js";

const DAY = 86_400_000_000n;
let fx: CcFixture;

beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx?.stop());

const candidate = (kind: "holding" | "coupon", value: string, id: string): SpendableCandidate =>
  ({ contractId: id, value: Numeric.parse(value), kind, input: { tag: kind === "holding" ? "InputAmulet" : "InputAppRewardCoupon", value: id } }) as SpendableCandidate;

describe("mint inputs", () => {
  it("takes every positive coupon, and the smallest holdings only from twice the limit on", () => {
    const holdings = ["5", "1", "3", "2", "4"].map((v, i) => candidate("holding", v, `h${i}`));
    const coupon = candidate("coupon", "0.5", "c0");
    expect(mintInputs([...holdings.slice(0, 3), coupon], 2n).map((c) => c.contractId)).toEqual(["c0"]);
    // 5 holdings >= 2 × 2: merge the 4 smallest into one, leaving 2.
    expect(mintInputs([...holdings, coupon], 2n).map((c) => c.contractId)).toEqual(["c0", "h1", "h3", "h2", "h4"]);
  });
});

describe("minting delegation trigger", () => {
  it("merges the beneficiary down to its merge limit as the delegate; an expired delegation does nothing", async () => {
    const [beneficiary, stale] = [await fx.party("beneficiary"), await fx.party("stale")];
    const now = fx.clock.now();
    const delegation = (party: string, expiresAt: bigint) => ({ beneficiary: party, delegate: fx.validator, dso: fx.dso, expiresAt, amuletMergeLimit: 3n });
    // The holdings first, then the delegations: the trigger sees all 7 at once (a delegation made
    // first would merge at 6 holdings, while the taps still arrive).
    for (let i = 1; i <= 7; i++) await fx.tap(beneficiary, String(i));
    for (let i = 1; i <= 7; i++) await fx.tap(stale, String(i));
    // Expired as it is made (the trigger and MintingDelegation_Mint both want ledger time before
    // `expiresAt`): one expiring later is live until time moves, and the loop, woken 20 ms after the
    // create, may mint for it first, as it did under load when this waited for `fx.advance`.
    await fx.client.create([stale, fx.validator], MintingDelegation, delegation(stale, now));
    await fx.client.create([beneficiary, fx.validator], MintingDelegation, delegation(beneficiary, now + 10n * DAY));
    // The loop looks at this very time, so the test does not depend on when it wakes.
    await fx.t.server.network.automation.runNow();
    // A mint that lost a race is retried after a backoff the loop's `settled` does not wait for.
    // (200 ms doubling: a mint that lost two races waits 600 ms, more on a loaded machine.)
    for (let i = 0; i < 200 && (await fx.holdings(beneficiary)).length > 3; i++) await new Promise((r) => setTimeout(r, 50));

    const left = await fx.holdings(beneficiary);
    expect(left).toHaveLength(3);
    expect(Numeric.total(left.map((h) => h.payload.amount.initialAmount)).toString()).toBe("28.0000000000");
    expect(left.map((h) => h.payload.amount.initialAmount.toString()).sort()).toEqual(["15.0000000000", "6.0000000000", "7.0000000000"]);
    expect(await fx.holdings(stale)).toHaveLength(7);
  });
});
