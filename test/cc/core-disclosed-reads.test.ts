/**
 * Disclosed contracts (AmuletRules, the open round, the preapproval a sender cannot see) are used
 * from the submission as given, like Canton does, instead of being read from the store again for
 * every transfer; the commit still refuses them once archived.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../src/ledger/numeric.js";
import { TransferPreapproval } from "../../src/templates/splice/index.js";

const send = TransferPreapproval.choices.get("TransferPreapproval_Send")!;
import { amuletInput, refused, startCc, type CcFixture } from "./cc-fixture.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

describe("disclosed contracts", () => {
  it("are not read from the store during interpretation", async () => {
    const provider = await fx.party("provider");
    const receiver = await fx.party("receiver");
    const pre = await fx.createPreapproval(provider, receiver, [amuletInput(await fx.tap(provider, "100"))], fx.clock.now() + 86_400_000_000n);
    const alice = await fx.party("alice");
    const coin = await fx.tap(alice, "10");
    const records = [...(await fx.disclosed()), (await fx.client.contract(TransferPreapproval, pre.transferPreapprovalCid))!.record];
    const disclosed = new Set(records.map((r) => r.contractId));
    const argument = { context: await fx.paymentContext(), inputs: [amuletInput(coin)], amount: Numeric.parse("1"), sender: alice, description: null };
    const store = fx.t.server.api.ledger.store;
    const original = store.activeContract.bind(store);
    const reads: string[] = [];
    store.activeContract = (cid: string) => {
      reads.push(cid);
      return original(cid);
    };
    try {
      await fx.client.exercise([alice], TransferPreapproval, pre.transferPreapprovalCid, send, argument, { disclosed: records });
    } finally {
      store.activeContract = original;
    }
    expect(reads.filter((cid) => disclosed.has(cid))).toEqual([]);
    expect(reads).toContain(coin);
  });

  it("are still refused at commit once archived", async () => {
    const provider = await fx.party("provider");
    const receiver = await fx.party("receiver");
    const pre = await fx.createPreapproval(provider, receiver, [amuletInput(await fx.tap(provider, "100"))], fx.clock.now() + 86_400_000_000n);
    const stale = (await fx.client.contract(TransferPreapproval, pre.transferPreapprovalCid))!.record;
    await fx.client.exercise([receiver], TransferPreapproval, pre.transferPreapprovalCid, TransferPreapproval.choices.get("TransferPreapproval_Cancel")!, { p: receiver });
    const alice = await fx.party("alice");
    const coin = await fx.tap(alice, "10");
    const before = await fx.snapshot();
    await refused(
      fx.client.exercise([alice], TransferPreapproval, pre.transferPreapprovalCid, send, {
        context: await fx.paymentContext(),
        inputs: [amuletInput(coin)],
        amount: Numeric.parse("1"),
        sender: alice,
        description: null,
      }, { disclosed: [...(await fx.disclosed()), stale] }),
      /inactive|could not be found/i,
    );
    expect(await fx.snapshot()).toEqual(before);
  });
});
