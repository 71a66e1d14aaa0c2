/**
 * Holding fees on the ledger (api-shapes.md §6), with hand-computed values at scale 10.
 * Default network: 0.0000190259 USD per round at 0.005 USD/CC = 0.0038051800 CC per round.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Amulet } from "../../../src/templates/splice/index.js";
import type { ExerciseNodeRecord } from "../../../src/ledger/records.js";
import { amuletInput, N, networkConfig, refused, startCc, type CcFixture } from "../../support/cc-fixture.js";

const RATE = "0.0038051800";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

/** The DSO's Amulet_Expire exercises on a holding, read back from the ledger's transactions. */
async function expiries(fixture: CcFixture, cid: string): Promise<ExerciseNodeRecord[]> {
  const store = fixture.t.server.api.ledger.store;
  const txs = await store.transactions(0n, await store.ledgerEnd(), 100_000);
  return txs.flatMap((tx) => tx.nodes).filter((n): n is ExerciseNodeRecord => n.kind === "exercise" && n.contractId === cid && n.choice === "Amulet_Expire");
}

describe("holding fees", () => {
  it("new holdings carry the open round and its rate per round", async () => {
    const alice = await fx.party("alice");
    const open = await fx.openRound();
    await fx.tap(alice, "100");
    const [h] = await fx.holdings(alice);
    expect(h.payload.amount.createdAt.number).toBe(open.number);
    expect(h.payload.amount.ratePerRound.rate.toString()).toBe(RATE);
  });

  it("balances match min(initial, (round − createdAt) × rate) at every round", async () => {
    const alice = await fx.party("alice");
    const start = (await fx.openRound()).number;
    await fx.tap(alice, "100");
    // One holding of 100 from `start`, a second of 50 from `start + 2`.
    const expected = ["100.0000000000", "99.9961948200", "149.9923896400", "149.9847792800", "149.9771689200", "149.9695585600"];
    for (let k = 0; k < expected.length; k++) {
      await fx.toRound(start + BigInt(k));
      if (k === 2) await fx.tap(alice, "50");
      expect((await fx.balance(alice)).toString(), `round ${start + BigInt(k)}`).toBe(expected[k]);
    }
    const amounts = (await fx.holdings(alice)).map((h) => h.payload.amount.initialAmount.toString()).sort();
    expect(amounts).toEqual(["100.0000000000", "50.0000000000"]);
  });

  it("a transfer spending an aged holding charges exactly the accrued fee", async () => {
    const alice = await fx.party("alice");
    const bob = await fx.party("bob");
    const start = (await fx.openRound()).number;
    const cid = await fx.tap(alice, "100");
    await fx.toRound(start + 3n);
    const result = await fx.transfer([alice, bob], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "30" }] });
    // 3 rounds × 0.00380518
    expect(result.summary.holdingFees.toString()).toBe("0.0114155400");
    expect(result.summary.inputAmuletAmount.toString()).toBe("100.0000000000");
    expect(result.summary.senderChangeAmount.toString()).toBe("69.9885844600");
    expect(result.summary.senderChangeFee.toString()).toBe("0.0000000000");
    expect(result.summary.outputFees.map(String)).toEqual(["0.0000000000"]);
    expect(result.round.number).toBe(start + 3n);
    expect((await fx.balance(bob)).toString()).toBe("30.0000000000");
    expect((await fx.balance(alice)).toString()).toBe("69.9885844600");
    const [change] = await fx.holdings(alice);
    expect(change.contractId).toBe(result.senderChangeAmulet);
    expect(change.payload.amount.createdAt.number).toBe(start + 3n);
    expect(change.payload.amount.ratePerRound.rate.toString()).toBe(RATE);
    // Balance changes as of round 0 (Splice's tx-log normalisation).
    const changes = new Map(result.summary.balanceChanges.map(([p, c]) => [p, c]));
    const asOf0 = (amount: string, round: bigint) => N(amount).add(N(RATE).mulInt(round));
    expect(changes.get(bob)!.changeToInitialAmountAsOfRoundZero.toString()).toBe(asOf0("30", start + 3n).toString());
    expect(changes.get(alice)!.changeToInitialAmountAsOfRoundZero.toString()).toBe(
      asOf0("69.98858446", start + 3n).sub(asOf0("100", start)).toString(),
    );
    expect(changes.get(alice)!.changeToHoldingFeesRate.toString()).toBe("0.0000000000");
  });

  it("the DSO expires a holding once it is worth nothing, and not before", async () => {
    const dave = await fx.party("dave");
    const start = (await fx.openRound()).number;
    const cid = await fx.tap(dave, "0.01"); // 0.01 / 0.00380518 = 2.63 → expires at start + 3
    await fx.toRound(start + 2n);
    expect((await fx.balance(dave)).toString()).toBe("0.0023896400");
    expect(await fx.client.contract(Amulet, cid)).toBeDefined();
    expect(await expiries(fx, cid)).toEqual([]);
    await fx.toRound(start + 3n);
    expect(await fx.client.contract(Amulet, cid)).toBeUndefined();
    const [expire] = await expiries(fx, cid);
    expect(expire.actingParties).toEqual([fx.dso]);
    const result = expire.result as { expireSum: { owner: string; round: { number: string } } };
    expect(result.expireSum.owner).toBe(dave);
    expect(result.expireSum.round.number).toBe(String(start + 3n));
  });

  it("the DSO cannot expire a holding that is still worth something", async () => {
    const erin = await fx.party("erin");
    const cid = await fx.tap(erin, "1");
    const open = await fx.openRound();
    const before = await fx.snapshot();
    await refused(
      fx.client.exercise([fx.dso], Amulet, cid, Amulet.choices.get("Amulet_Expire")!, { roundCid: open.contractId }),
      /Amulet is expired/,
    );
    expect(await fx.snapshot()).toEqual(before);
  });
});

describe("holding fees with a big rate (CCWALLET_CONFIG)", () => {
  let big: CcFixture;
  beforeAll(async () => {
    // 1 USD per round at 0.005 USD/CC = 200 CC per round.
    big = await startCc(networkConfig({ holdingFeeUsdPerRound: "1" }));
  });
  afterAll(() => big.stop());

  it("decays by 200 CC a round, is refused as worthless input, and expires as dust", async () => {
    const alice = await big.party("alice");
    const bob = await big.party("bob");
    const start = (await big.openRound()).number;
    const cid = await big.tap(alice, "500");
    expect((await big.holdings(alice))[0].payload.amount.ratePerRound.rate.toString()).toBe("200.0000000000");
    await big.toRound(start + 1n);
    expect((await big.balance(alice)).toString()).toBe("300.0000000000");
    await big.toRound(start + 2n);
    expect((await big.balance(alice)).toString()).toBe("100.0000000000");
    const before = await big.snapshot();
    const e = await refused(
      big.transfer([alice, bob], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "150" }] }),
      /ITR_InsufficientFunds \{missingAmount = 50\.0000000000\}/,
    );
    expect(e.code).toBe("DAML_INTERPRETATION_ERROR");
    expect(await big.snapshot()).toEqual(before);
    await big.toRound(start + 3n); // 500 / 200 = 2.5 → worth nothing from start + 3
    expect(await big.client.contract(Amulet, cid)).toBeUndefined();
    expect((await big.balance(alice)).toString()).toBe("0.0000000000");
  });
});
