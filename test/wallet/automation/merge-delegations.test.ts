/**
 * The MergeDelegation workflow on a real node in static time: users onboarded through
 * `/v0/admin/users` sign a MergeDelegationProposal the operator accepts; the operator's trigger
 * then merges a delegating party's holdings with BatchMergeUtility_MergeHoldings, at most 100
 * inputs a batch. The holdings are made while the automation is stopped and one round ages them
 * before it starts again, so the merges pay holding fees the transactions report.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExerciseNodeRecord } from "../../../src/ledger/records.js";
import { Numeric } from "../../../src/ledger/numeric.js";
import { MergeDelegation, MergeDelegation_Withdraw } from "../../../src/templates/splice/merge-delegation.js";
import { startCc, TICK, type CcFixture } from "../../support/cc-fixture.js";

const MANY = 250;

interface MergeTransferArg {
  readonly transfer: { readonly sender: string; readonly inputs: readonly { readonly tag: string; readonly value: string }[]; readonly outputs: readonly unknown[] };
}
interface TransferSummary {
  readonly summary: { readonly holdingFees: unknown; readonly outputFees: readonly unknown[]; readonly senderChangeFee: unknown };
  readonly senderChangeAmulet: string | null;
}
interface BatchArg {
  readonly mergeCalls: readonly { readonly choiceArg: { readonly optMergeTransfer: { readonly choiceArg: { readonly transfer: { readonly sender: string; readonly inputHoldingCids: readonly string[] } } } | null } }[];
}

const num = (v: unknown) => Numeric.parse(String(v));
const sum = (xs: readonly Numeric[]) => xs.reduce((a, b) => a.add(b), Numeric.zero);

let fx: CcFixture;
const party: Record<"deleg" | "selfm" | "small", string> = { deleg: "", selfm: "", small: "" };

beforeAll(async () => {
  fx = await startCc();
  const operator = await fx.t.token("administrator");
  for (const name of ["deleg", "selfm", "small"] as const) {
    const r = await fx.t.json("POST", "/v0/admin/users", { name: `md-${name}` }, operator);
    expect(r.status, r.text).toBe(200);
    party[name] = r.body.party_id as string;
  }
}, 60_000);
afterAll(() => fx?.stop());

const delegationsOf = async (owner: string) => (await fx.client.active(MergeDelegation, [owner])).filter((d) => d.payload.owner === owner);
const initialTotal = async (owner: string) => sum((await fx.holdings(owner)).map((h) => h.payload.amount.initialAmount));
const exercises = async (from: number, choice: string) =>
  (await fx.nodes())
    .slice(from)
    .map(({ node }) => node)
    .filter((n): n is ExerciseNodeRecord => n.kind === "exercise" && n.choice === choice);

describe("merge delegation (spec: UTXO management)", () => {
  it("onboarding leaves each user with an active MergeDelegation to the operator", async () => {
    for (const p of Object.values(party)) {
      const [d, ...more] = await delegationsOf(p);
      expect(more).toEqual([]);
      expect(d!.payload).toMatchObject({ owner: p, operator: fx.validator });
    }
  });

  it(`merges a delegating party's ${MANY} holdings in batches of <= 100 inputs, keeping every unit but the fees; leaves the others to the self-merge or alone`, { timeout: 120_000 }, async () => {
    const [own] = await delegationsOf(party.selfm);
    await fx.client.exercise([party.selfm], MergeDelegation, own!.contractId, MergeDelegation_Withdraw, {});
    // Stopped, the automation cannot merge while the holdings are made.
    const loop = fx.t.server.network.automation;
    await loop.stop();
    for (let i = 0; i < MANY; i++) await fx.tap(party.deleg, `${1 + (i % 7)}.${String(i).padStart(3, "0")}0000001`);
    for (let i = 0; i < 12; i++) await fx.tap(party.selfm, `${i + 1}`);
    for (let i = 0; i < 5; i++) await fx.tap(party.small, `${i + 1}`);
    const before = await initialTotal(party.deleg);
    const small = (await fx.holdings(party.small)).map((h) => h.contractId).sort();
    const start = (await fx.nodes()).length;
    // One tick: the next round opens, the holdings owe it one round's holding fee.
    fx.clock.set(fx.clock.now(), fx.clock.now() + TICK);
    loop.start();
    await loop.runNow();

    // The batches: only the delegating party's holdings, <= 100 inputs each, all of them merged.
    const batches = (await exercises(start, "BatchMergeUtility_MergeHoldings")).map((n) => n.argument as BatchArg);
    const transfers = batches.flatMap((b) => b.mergeCalls.map((c) => c.choiceArg.optMergeTransfer!.choiceArg.transfer));
    expect(new Set(transfers.map((t) => t.sender))).toEqual(new Set([party.deleg]));
    const sizes = batches.map((b) => b.mergeCalls.reduce((n, c) => n + c.choiceArg.optMergeTransfer!.choiceArg.transfer.inputHoldingCids.length, 0));
    expect(sizes).toEqual([100, 100, 50]);
    const after = await fx.holdings(party.deleg);
    expect(after.length).toBeLessThanOrEqual(10);
    expect(after).toHaveLength(3);

    // Exact: what the party has now is what it had less the fees its merge transfers report.
    const merges = (await exercises(start, "AmuletRules_Transfer")).filter((n) => (n.argument as MergeTransferArg).transfer.sender === party.deleg);
    expect(merges.map((n) => (n.argument as MergeTransferArg).transfer.inputs.length)).toEqual(sizes);
    const results = merges.map((n) => n.result as TransferSummary);
    expect(results.map((r) => r.senderChangeAmulet)).toEqual([null, null, null]);
    const fees = sum(results.map((r) => num(r.summary.holdingFees).add(sum(r.summary.outputFees.map(num))).add(num(r.summary.senderChangeFee))));
    expect(fees.isPositive(), "one round of holding fees on 250 holdings").toBe(true);
    expect((await initialTotal(party.deleg)).toString()).toBe(before.sub(fees).toString());

    // The non-delegating party merged its own (an AmuletRules_Transfer it sent, not under a delegation).
    expect(await fx.holdings(party.selfm)).toHaveLength(1);
    const selfMerges = (await exercises(start, "AmuletRules_Transfer")).filter((n) => (n.argument as MergeTransferArg).transfer.sender === party.selfm);
    expect(selfMerges.map((n) => (n.argument as MergeTransferArg).transfer.inputs.length)).toEqual([12]);
    // Below the threshold: untouched.
    expect((await fx.holdings(party.small)).map((h) => h.contractId).sort()).toEqual(small);
  });

  it("merges on the ledger's changes alone: a pass for the owners new holdings changed merges each one over the threshold, by delegation or by itself", { timeout: 60_000 }, async () => {
    const start = (await fx.nodes()).length;
    const small = (await fx.holdings(party.small)).map((h) => h.contractId).sort();
    // The running automation sees these taps as changes of these owners only (no runNow).
    for (let i = 0; i < 11; i++) {
      await fx.tap(party.deleg, "1");
      await fx.tap(party.selfm, "1");
    }
    await fx.tap(party.small, "1");
    // Reads of the contracts can show a commit the store has not answered yet, while `fx.nodes()`
    // reads transactions up to the answered ledger end: wait for both views to hold the merges.
    const selfMergedBy = async (sender: string) => (await exercises(start, "AmuletRules_Transfer")).filter((n) => (n.argument as MergeTransferArg).transfer.sender === sender);
    const settled = async () =>
      (await fx.holdings(party.deleg)).length <= 10 &&
      (await fx.holdings(party.selfm)).length <= 10 &&
      (await exercises(start, "BatchMergeUtility_MergeHoldings")).length > 0 &&
      (await selfMergedBy(party.selfm)).length > 0;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !(await settled())) await new Promise((r) => setTimeout(r, 20));
    expect((await fx.holdings(party.deleg)).length).toBeLessThanOrEqual(10);
    expect((await fx.holdings(party.selfm)).length).toBeLessThanOrEqual(10);
    const batched = (await exercises(start, "BatchMergeUtility_MergeHoldings")).flatMap((n) => (n.argument as BatchArg).mergeCalls.map((c) => c.choiceArg.optMergeTransfer!.choiceArg.transfer.sender));
    expect(new Set(batched)).toEqual(new Set([party.deleg]));
    expect((await selfMergedBy(party.selfm)).length).toBeGreaterThan(0);
    // Below the threshold: the new holding beside the old ones, nothing merged.
    const smallNow = (await fx.holdings(party.small)).map((h) => h.contractId);
    expect(smallNow).toHaveLength(small.length + 1);
    expect(smallNow.filter((c) => small.includes(c)).sort()).toEqual(small);
  });
});
