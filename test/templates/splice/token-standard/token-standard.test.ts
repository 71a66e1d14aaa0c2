/**
 * CC through the token standard as a client sees it: the registry functions give the factory,
 * choice contexts and disclosed contracts; everything else goes through the ledger. Amounts are
 * hand-computed at scale 10 (price 0.005 USD/CC, holding fee 0.0000190259 USD/round, so
 * 0.0038051800 CC per round; the offer locks 4 × the holding fee of its lifetime on top).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireTransferInstructions } from "../../../../src/dso/token-standard.js";
import { choiceOf } from "../../../support/choice-of.js";
import { Numeric } from "../../../../src/ledger/numeric.js";
import { AmuletRules, AmuletTransferInstruction, AppRewardCoupon, LockedAmulet, type AmuletRulesPayload } from "../../../../src/templates/splice/index.js";
import { startCc, type CcFixture } from "../../../support/cc-fixture.js";
import { actOnInstruction, ensureFactory, HOUR, instructTransfer, standardTransfer } from "../../../support/token-standard-client.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
  await ensureFactory(fx);
  await fx.tap(fx.validator, "1000");
});
afterAll(() => fx.stop());

const RATE = Numeric.parse("0.0038051800");
/** 4 × holding fees of one hour: 4 × (0.0000190259 × 144 × (1/24)) / 0.005. */
const RESERVE_1H = Numeric.parse("0.0913243200");

async function amounts(party: string): Promise<string[]> {
  return (await fx.holdings(party)).map((h) => h.payload.amount.initialAmount.toString()).sort();
}

const cidsOf = async (party: string) => (await fx.holdings(party)).map((h) => h.contractId as string);

async function preapprove(receiver: string): Promise<void> {
  const s = await fx.network();
  const [funds] = await fx.holdings(fx.validator);
  await fx.client.exercise(
    [fx.validator, receiver],
    AmuletRules,
    s.rules.contractId,
    choiceOf<AmuletRulesPayload>(AmuletRules, "AmuletRules_CreateTransferPreapproval"),
    {
      context: { amuletRules: s.rules.contractId, context: { openMiningRound: (await fx.openRound()).contractId, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null } },
      inputs: [{ tag: "InputAmulet", value: funds.contractId }],
      receiver,
      provider: fx.validator,
      expiresAt: fx.clock.now() + 90n * 86_400_000_000n,
    },
    { disclosed: await fx.disclosed() },
  );
}

describe("token standard transfers", () => {
  it("self-transfer merges and splits in one step", async () => {
    const alice = await fx.party("alice");
    await fx.tap(alice, "40");
    await fx.tap(alice, "60");
    const { kind, result } = await instructTransfer(fx, standardTransfer(fx, alice, alice, "30", await cidsOf(alice)));
    expect(kind).toBe("self");
    expect(result.output.tag).toBe("TransferInstructionResult_Completed");
    expect(await amounts(alice)).toEqual(["30.0000000000", "70.0000000000"]);
    const out = result.output.value as { receiverHoldingCids: string[] };
    expect(out.receiverHoldingCids).toHaveLength(1);
    expect(result.senderChangeCids).toHaveLength(1);
  });

  it("direct transfer through the receiver's preapproval is one step and rewards the featured provider", async () => {
    const alice = await fx.party("alice");
    const carol = await fx.party("carol");
    await fx.tap(alice, "100");
    await preapprove(carol);
    const couponsBefore = (await fx.client.active(AppRewardCoupon, [fx.validator])).length;
    const { kind, result } = await instructTransfer(fx, standardTransfer(fx, alice, carol, "25", await cidsOf(alice)));
    expect(kind).toBe("direct");
    expect(result.output).toEqual({ tag: "TransferInstructionResult_Completed", value: { receiverHoldingCids: (await cidsOf(carol)) } });
    expect(await amounts(carol)).toEqual(["25.0000000000"]);
    expect(await amounts(alice)).toEqual(["75.0000000000"]);
    expect((await fx.client.active(AppRewardCoupon, [fx.validator])).length).toBe(couponsBefore + 1);
  });

  it("offer locks the CC for the DSO, and accept moves it to the receiver", async () => {
    const alice = await fx.party("alice");
    const bob = await fx.party("bob");
    await fx.tap(alice, "100");
    const { kind, result } = await instructTransfer(fx, standardTransfer(fx, alice, bob, "10", await cidsOf(alice)));
    expect(kind).toBe("offer");
    expect(result.output.tag).toBe("TransferInstructionResult_Pending");
    const cid = (result.output.value as { transferInstructionCid: string }).transferInstructionCid;
    const instr = await fx.client.contract(AmuletTransferInstruction, cid);
    const [locked] = await fx.client.active(LockedAmulet, [alice]);
    expect(instr?.payload.transfer.inputHoldingCids).toEqual([locked.contractId]);
    expect(locked.payload.lock.holders).toEqual([fx.dso]);
    expect(locked.payload.lock.expiresAt).toBe(instr!.payload.transfer.executeBefore);
    expect(locked.payload.amulet.amount.initialAmount.toString()).toBe(Numeric.parse("10").add(RESERVE_1H).toString());
    expect(await amounts(alice)).toEqual([Numeric.parse("90").sub(RESERVE_1H).toString()]);
    // Two rounds later: the locked CC has paid two rounds of holding fees out of the reserve.
    const r0 = (await fx.openRound()).number;
    await fx.toRound(r0 + 2n);
    const elapsed = (await fx.openRound()).number - r0;
    expect(elapsed).toBe(2n);
    const accepted = await actOnInstruction(fx, bob, cid, "accept");
    expect(accepted.result.output).toEqual({ tag: "TransferInstructionResult_Completed", value: { receiverHoldingCids: await cidsOf(bob) } });
    expect(await amounts(bob)).toEqual(["10.0000000000"]);
    const change = RESERVE_1H.sub(RATE.mulInt(elapsed));
    expect(await amounts(alice)).toEqual([change.toString(), Numeric.parse("90").sub(RESERVE_1H).toString()].sort());
    expect(await fx.client.active(LockedAmulet, [alice])).toEqual([]);
    expect(await fx.client.contract(AmuletTransferInstruction, cid)).toBeUndefined();
  });

  it("reject and withdraw unlock the CC back to the sender", async () => {
    const alice = await fx.party("alice");
    const bob = await fx.party("bob");
    await fx.tap(alice, "100");
    for (const [actor, choice] of [[bob, "reject"], [alice, "withdraw"]] as const) {
      const { result } = await instructTransfer(fx, standardTransfer(fx, alice, bob, "10", await cidsOf(alice)));
      const cid = (result.output.value as { transferInstructionCid: string }).transferInstructionCid;
      const done = await actOnInstruction(fx, actor, cid, choice);
      expect(done.result.output.tag).toBe("TransferInstructionResult_Failed");
      expect(done.result.senderChangeCids).toHaveLength(1);
      expect(await fx.client.active(LockedAmulet, [alice])).toEqual([]);
      expect(await amounts(bob)).toEqual([]);
      const total = (await fx.holdings(alice)).reduce((a, h) => a.add(h.payload.amount.initialAmount), Numeric.zero);
      expect(total.toString()).toBe("100.0000000000");
    }
  });

  it("past executeBefore the DSO expires the instruction and the CC returns to the sender", async () => {
    const alice = await fx.party("alice");
    const bob = await fx.party("bob");
    await fx.tap(alice, "100");
    const { result } = await instructTransfer(fx, standardTransfer(fx, alice, bob, "10", await cidsOf(alice), HOUR));
    const cid = (result.output.value as { transferInstructionCid: string }).transferInstructionCid;
    const [locked] = await fx.client.active(LockedAmulet, [alice]);
    await fx.advance(HOUR);
    // The DSO automation step (a no-op here once the server wires it into the automation).
    await expireTransferInstructions(fx.client, await fx.network(), fx.clock.now());
    expect(await fx.client.contract(AmuletTransferInstruction, cid)).toBeUndefined();
    expect(await fx.client.contract(LockedAmulet, locked.contractId)).toBeUndefined();
    expect(await amounts(alice)).toEqual([locked.payload.amulet.amount.initialAmount.toString(), Numeric.parse("90").sub(RESERVE_1H).toString()].sort());
    expect(await amounts(bob)).toEqual([]);
  });
});
