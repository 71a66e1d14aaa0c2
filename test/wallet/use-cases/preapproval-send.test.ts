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

  it("a huge transfer into another's wallet leaves its reads total and fails only the overflowing transaction", async () => {
    const mallory = await fx.party("mallory");
    const victim = await fx.party("victim");
    const carol = await fx.party("carol");
    const huge = "9".repeat(28);
    await fx.tap(fx.validator, "1000");
    await preapprove(victim);
    await preapprove(carol);
    await fx.tap(victim, "5");
    // A DevNet tap is capped, even on the ledger; the DSO can still mint any amount in range.
    await expect(fx.tap(mallory, huge)).rejects.toThrow(/a DevNet tap mints at most 1000000/);
    await fx.rules([fx.dso, mallory], "AmuletRules_Mint", { receiver: mallory, amount: Numeric.parse(huge), openRound: (await fx.openRound()).contractId });
    await sendViaPreapproval(deps, { sender: mallory, receiver: victim, amount: Numeric.parse(huge), deduplicationId: "huge" });
    // The victim's holdings sum past 28 integer digits; the balance is exact anyway.
    const balance = await getBalance(deps, victim);
    expect(balance.effectiveUnlocked.toString()).toBe("10000000000000000000000000004.0000000000");
    // Small sends still work (inputs are picked smallest first).
    await sendViaPreapproval(deps, { sender: victim, receiver: carol, amount: Numeric.parse("1"), deduplicationId: "small" });
    expect((await getBalance(deps, carol)).effectiveUnlocked.toString()).toBe("1.0000000000");
    // A send whose inputs sum past the range fails as Daml's ArithmeticError; nothing is committed.
    const before = (await fx.holdings(victim)).map((h) => h.contractId).sort();
    await expect(sendViaPreapproval(deps, { sender: victim, receiver: carol, amount: Numeric.parse(huge), deduplicationId: "overflow" })).rejects.toMatchObject({
      code: "UNHANDLED_EXCEPTION",
      message: expect.stringContaining("DA.Exception.ArithmeticError:ArithmeticError"),
    });
    expect((await fx.holdings(victim)).map((h) => h.contractId).sort()).toEqual(before);
    expect((await getBalance(deps, carol)).effectiveUnlocked.toString()).toBe("1.0000000000");
  });

  it("refuses a description longer than the text limit, changing nothing", async () => {
    const dora = await fx.party("dora");
    const erin = await fx.party("erin");
    await fx.tap(fx.validator, "1000");
    await fx.tap(dora, "10");
    await preapprove(erin);
    const send = (description: string, id: string) => sendViaPreapproval(deps, { sender: dora, receiver: erin, amount: Numeric.parse("1"), deduplicationId: id, description });
    await expect(send("d".repeat(65_537), "long")).rejects.toMatchObject({ kind: "bad-request", message: expect.stringMatching(/^description: must be at most 65536 characters/) });
    expect((await getBalance(deps, erin)).effectiveUnlocked.toString()).toBe("0.0000000000");
    await send("d".repeat(65_536), "at-limit");
    expect((await getBalance(deps, erin)).effectiveUnlocked.toString()).toBe("1.0000000000");
  });
});
