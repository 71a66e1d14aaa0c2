import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choiceOf } from "../../support/choice-of.js";
import { Numeric } from "../../../src/ledger/numeric.js";
import { AmuletRules, type AmuletRulesPayload } from "../../../src/templates/splice/index.js";
import { getBalance } from "../../../src/wallet/use-cases/get-balance.js";
import { sendViaPreapproval } from "../../../src/wallet/use-cases/send-via-preapproval.js";
import { WalletError } from "../../../src/wallet/wallet-error.js";
import { newWalletLocal, type WalletDeps } from "../../../src/wallet/wallet-deps.js";
import { startCc, type CcFixture } from "../../support/cc-fixture.js";

let fx: CcFixture;
let deps: WalletDeps;
beforeAll(async () => {
  fx = await startCc();
  deps = { ...fx.t.server.wallet, client: fx.client, local: newWalletLocal() };
});
afterAll(() => fx.stop());

async function preapprove(receiver: string): Promise<void> {
  const s = await fx.network();
  const round = (await fx.openRound()).contractId;
  const [funds] = await fx.holdings(fx.validator);
  await fx.client.exercise(
    [fx.validator, receiver],
    AmuletRules,
    s.rules.contractId,
    choiceOf<AmuletRulesPayload>(AmuletRules, "AmuletRules_CreateTransferPreapproval"),
    {
      context: { amuletRules: s.rules.contractId, context: { openMiningRound: round, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null } },
      inputs: [{ tag: "InputAmulet", value: funds.contractId }],
      receiver,
      provider: fx.validator,
      expiresAt: fx.clock.now() + 90n * 86_400_000_000n,
    },
    { disclosed: await fx.disclosed() },
  );
}

describe("send via preapproval", () => {
  it("moves CC in one step, dedups by id, and refuses without a preapproval", async () => {
    const alice = await fx.party("alice");
    const bob = await fx.party("bob");
    await fx.tap(fx.validator, "1000");
    await fx.tap(alice, "100");
    await expect(sendViaPreapproval(deps, { sender: alice, receiver: bob, amount: Numeric.parse("10"), deduplicationId: "x0" })).rejects.toThrow(WalletError);
    await preapprove(bob);
    await sendViaPreapproval(deps, { sender: alice, receiver: bob, amount: Numeric.parse("10"), deduplicationId: "x1" });
    expect((await getBalance(deps, bob)).effectiveUnlocked.toString()).toBe("10.0000000000");
    expect((await getBalance(deps, alice)).effectiveUnlocked.toString()).toBe("90.0000000000");
    await expect(sendViaPreapproval(deps, { sender: alice, receiver: bob, amount: Numeric.parse("10"), deduplicationId: "x1" })).rejects.toMatchObject({ code: "DUPLICATE_COMMAND" });
    expect((await getBalance(deps, bob)).effectiveUnlocked.toString()).toBe("10.0000000000");
    // the featured provider (validator operator) earned an app reward coupon
    const { AppRewardCoupon } = await import("../../../src/templates/splice/index.js");
    const coupons = await fx.client.active(AppRewardCoupon, [fx.validator]);
    expect(coupons.map((c) => [c.payload.featured, c.payload.amount.toString()])).toEqual([[true, "200.0000000000"]]);
  });
});
