/** AmuletRules_Transfer: outputs, change, and every refusal leaving the ledger unchanged. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LockedAmulet } from "../../../src/templates/splice/index.js";
import { amuletInput, N, refused, startCc, TICK, type CcFixture } from "../../support/cc-fixture.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

describe("AmuletRules_Transfer", () => {
  it("pays several receivers and returns the change to the sender at the open round", async () => {
    const [alice, bob, carol] = [await fx.party("alice"), await fx.party("bob"), await fx.party("carol")];
    const a = await fx.tap(alice, "60");
    const b = await fx.tap(alice, "40");
    const open = await fx.openRound();
    const result = await fx.transfer([alice, bob, carol], {
      sender: alice,
      inputs: [amuletInput(a), amuletInput(b)],
      outputs: [
        { receiver: bob, amount: "25.5" },
        { receiver: carol, amount: "0.0000000001" },
      ],
    });
    expect(result.summary.inputAmuletAmount.toString()).toBe("100.0000000000");
    expect(result.summary.senderChangeAmount.toString()).toBe("74.4999999999");
    expect(result.createdAmulets.map((c) => c.tag)).toEqual(["TransferResultAmulet", "TransferResultAmulet"]);
    expect((await fx.balance(bob)).toString()).toBe("25.5000000000");
    expect((await fx.balance(carol)).toString()).toBe("0.0000000001");
    const mine = await fx.holdings(alice);
    expect(mine.map((h) => [h.contractId, h.payload.amount.initialAmount.toString(), h.payload.amount.createdAt.number])).toEqual([
      [result.senderChangeAmulet, "74.4999999999", open.number],
    ]);
    expect(result.meta?.values.get("splice.lfdecentralizedtrust.org/tx-kind")).toBe("transfer");
    expect(result.meta?.values.get("splice.lfdecentralizedtrust.org/sender")).toBe(alice);
  });

  it("merges up to 100 inputs into one holding (a merge-split, no change when it is all spent)", async () => {
    const alice = await fx.party("alice");
    const cids: string[] = [];
    for (let i = 0; i < 100; i++) cids.push(await fx.tap(alice, "1"));
    const result = await fx.transfer([alice], { sender: alice, inputs: cids.map(amuletInput), outputs: [{ receiver: alice, amount: "100" }] });
    expect(result.senderChangeAmulet).toBeNull();
    expect(result.summary.senderChangeAmount.toString()).toBe("0.0000000000");
    expect(result.meta?.values.get("splice.lfdecentralizedtrust.org/tx-kind")).toBe("merge-split");
    const mine = await fx.holdings(alice);
    expect(mine.map((h) => h.payload.amount.initialAmount.toString())).toEqual(["100.0000000000"]);
  });

  it("uses an older open round's number when the client picks it", async () => {
    const alice = await fx.party("alice");
    const bob = await fx.party("bob");
    const cid = await fx.tap(alice, "10");
    const s = await fx.network();
    const now = fx.clock.now();
    const open = s.openRounds.filter((r) => r.payload.opensAt <= now);
    expect(open.length).toBe(2);
    const result = await fx.transfer([alice, bob], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "1" }] }, { openMiningRound: open[0].contractId });
    expect(result.round.number).toBe(open[0].payload.round.number);
    const [change] = await fx.holdings(alice);
    expect(change.payload.amount.createdAt.number).toBe(open[0].payload.round.number);
  });
});

describe("AmuletRules_Transfer refusals (nothing changes)", () => {
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    alice = await fx.party("alice");
    bob = await fx.party("bob");
  });

  async function unchanged(p: Promise<unknown>, message: RegExp) {
    const before = await fx.snapshot();
    const e = await refused(p, message);
    expect(await fx.snapshot()).toEqual(before);
    return e;
  }

  it("more than 100 inputs", async () => {
    const cids: string[] = [];
    for (let i = 0; i < 101; i++) cids.push(await fx.tap(alice, "0.5"));
    await unchanged(
      fx.transfer([alice], { sender: alice, inputs: cids.map(amuletInput), outputs: [{ receiver: alice, amount: "1" }] }),
      /More than the maximum number of inputs/,
    );
  });

  it("an archived holding", async () => {
    const cid = await fx.tap(alice, "5");
    await fx.transfer([alice], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: alice, amount: "5" }] });
    const e = await unchanged(
      fx.transfer([alice, bob], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "1" }] }),
      /could not be found|not found|inactive/i,
    );
    expect(e.code).toBe("CONTRACT_NOT_FOUND");
  });

  it("a LockedAmulet given as an Amulet input", async () => {
    const cid = await fx.tap(alice, "5");
    const locked = await fx.transfer([alice, bob], {
      sender: alice,
      inputs: [amuletInput(cid)],
      outputs: [{ receiver: alice, amount: "5", lock: { holders: [bob], expiresAt: fx.clock.now() + 3n * TICK, optContext: "test" } }],
    });
    const [created] = locked.createdAmulets;
    expect(created.tag).toBe("TransferResultLockedAmulet");
    expect(await fx.client.contract(LockedAmulet, created.value)).toBeDefined();
    await unchanged(
      fx.transfer([alice, bob], { sender: alice, inputs: [amuletInput(created.value)], outputs: [{ receiver: bob, amount: "1" }] }),
      /is of template .*LockedAmulet, expected .*:Amulet/,
    );
  });

  it("someone else's holding", async () => {
    const cid = await fx.tap(bob, "5");
    await unchanged(
      fx.transfer([alice, bob], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "1" }] }),
      /is owned by the sender/,
    );
  });

  it("insufficient funds", async () => {
    const cid = await fx.tap(alice, "5");
    const e = await unchanged(
      fx.transfer([alice, bob], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "7.25" }] }),
      /InsufficientFunds \{missingAmount = 2\.2500000000\}/,
    );
    expect(e.code).toBe("DAML_INTERPRETATION_ERROR");
  });

  it("a receiver that does not authorize (no preapproval)", async () => {
    const cid = await fx.tap(alice, "5");
    const e = await unchanged(
      fx.transfer([alice], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "1" }] }),
      /requires authorizers/,
    );
    expect(e.code).toBe("DAML_AUTHORIZATION_ERROR");
  });

  it("a round that is not open yet", async () => {
    const cid = await fx.tap(alice, "5");
    const s = await fx.network();
    const future = s.openRounds.find((r) => r.payload.opensAt > fx.clock.now())!;
    await unchanged(
      fx.transfer([alice], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: alice, amount: "1" }] }, { openMiningRound: future.contractId }),
      /is not open yet/,
    );
  });

  it("a zero or negative output, and a receiver fee ratio above 1", async () => {
    const cid = await fx.tap(alice, "5");
    await unchanged(
      fx.transfer([alice, bob], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "0" }] }),
      /output amount is positive/,
    );
    await unchanged(
      fx.transfer([alice, bob], { sender: alice, inputs: [amuletInput(cid)], outputs: [{ receiver: bob, amount: "1", receiverFeeRatio: N("1.5") }] }),
      /not between 0.0 and 1.0/,
    );
  });

  it("a lock that outlives the holding", async () => {
    const cid = await fx.tap(alice, "0.01"); // worth nothing after 3 rounds
    await unchanged(
      fx.transfer([alice, bob], {
        sender: alice,
        inputs: [amuletInput(cid)],
        outputs: [{ receiver: alice, amount: "0.01", lock: { holders: [bob], expiresAt: fx.clock.now() + 10n * TICK, optContext: null } }],
      }),
      /lock expires before amulet/,
    );
  });
});
