import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../../../src/ledger/numeric.js";
import { AmuletRules, AppRewardCoupon, FeaturedAppRight, simpleTransferContext, type AmuletRulesPayload } from "../../../../src/templates/splice/index.js";
import {
  BatchMergeUtility,
  MergeDelegation,
  MergeDelegationProposal,
  MintingDelegation,
  MintingDelegationProposal,
  type BatchMergeUtilityPayload,
  type MergeDelegationMergeArg,
  type MergeDelegationMergeResult,
  type MergeDelegationProposalPayload,
  type MintingDelegationPayload,
  type MintingDelegationProposalPayload,
  type TransferCall,
} from "../../../../src/templates/splice/wallet/index.js";
import { startCc, TICK, type CcFixture } from "../../../support/cc-fixture.js";
import { act, amounts, amuletInputs, DAY, expectRefused, paymentContext, RATE, SECOND } from "./wallet-templates-helpers.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

describe("MintingDelegation", () => {
  async function delegate(beneficiary: string, delegatePartyOrValidator = fx.validator, existing: string | null = null, ttl = 10n * DAY) {
    const delegation: MintingDelegationPayload = { beneficiary, delegate: delegatePartyOrValidator, dso: fx.dso, expiresAt: fx.clock.now() + ttl, amuletMergeLimit: 10n };
    const proposal = await fx.client.create([beneficiary], MintingDelegationProposal, { delegation });
    const r = await act<MintingDelegationProposalPayload, { mintingDelegationCid: string }>(fx, [delegatePartyOrValidator], MintingDelegationProposal, proposal, "MintingDelegationProposal_Accept", {
      existingDelegationCid: existing,
    });
    return r.mintingDelegationCid;
  }
  const mint = async (cid: string, inputs: ReturnType<typeof amuletInputs>, context?: Awaited<ReturnType<typeof paymentContext>>, by = fx.validator) =>
    act<MintingDelegationPayload>(fx, [by], MintingDelegation, cid, "MintingDelegation_Mint", { inputs, context: context ?? (await paymentContext(fx)) });

  it("the delegate merges the beneficiary's holdings into one", async () => {
    const alice = await fx.party("alice");
    const cid = await delegate(alice);
    expect([...((await fx.client.contract(MintingDelegation, cid))?.record.signatories ?? [])].sort()).toEqual([alice, fx.validator].sort());
    const a = await fx.tap(alice, "10");
    const b = await fx.tap(alice, "20");
    await mint(cid, amuletInputs([a, b]));
    expect(await amounts(fx, alice)).toEqual(["30.0000000000"]);
    // Non-consuming: the delegation stays for the next run.
    expect(await fx.client.contract(MintingDelegation, cid)).toBeDefined();
  });

  it("mints the beneficiary's app reward coupon once its round issues", async () => {
    const alice = await fx.party("alice");
    const s = await fx.network();
    const { featuredAppRightCid } = await act<AmuletRulesPayload, { featuredAppRightCid: string }>(fx, [alice], AmuletRules, s.rules.contractId, "AmuletRules_DevNet_FeatureApp", {
      provider: alice,
    });
    const open = await fx.openRound();
    // A transfer by a featured provider earns it an AppRewardCoupon (extra 1 USD = 200 CC of activity).
    await act<AmuletRulesPayload>(fx, [alice], AmuletRules, s.rules.contractId, "AmuletRules_Transfer", {
      transfer: { sender: alice, provider: alice, inputs: amuletInputs([await fx.tap(alice, "10")]), outputs: [], beneficiaries: null },
      context: simpleTransferContext(open.contractId, featuredAppRightCid),
    });
    const [coupon] = (await fx.client.active(AppRewardCoupon, [alice])).filter((c) => c.payload.provider === alice);
    expect(coupon!.payload).toMatchObject({ featured: true, round: { number: open.number }, beneficiary: alice });
    expect(coupon!.payload.amount.toString()).toBe("200.0000000000");
    const issuing = await untilIssuing(open.number);
    const change = (await fx.holdings(alice))[0]!;
    const cid = await delegate(alice);
    const latest = await fx.openRound();
    await mint(cid, [{ tag: "InputAppRewardCoupon", value: coupon!.contractId }, ...amuletInputs([change.contractId])], {
      amuletRules: s.rules.contractId,
      context: { ...simpleTransferContext(latest.contractId), issuingMiningRounds: [[{ number: open.number }, issuing.contractId]] },
    });
    const elapsed = latest.number - open.number;
    const expected = Numeric.parse("10").sub(Numeric.parse(RATE).mulInt(elapsed)).add(Numeric.parse("200").mul(issuing.payload.issuancePerFeaturedAppRewardCoupon));
    expect(await amounts(fx, alice)).toEqual([expected.toString()]);
    expect(await fx.client.contract(AppRewardCoupon, coupon!.contractId)).toBeUndefined();
  });

  async function untilIssuing(round: bigint) {
    for (let i = 0; i < 20; i++) {
      const found = (await fx.network()).issuingRounds.find((r) => r.payload.round.number === round && r.payload.opensAt <= fx.clock.now());
      if (found) return found;
      await fx.advance(TICK);
    }
    throw new Error(`round ${round} never issued`);
  }

  it("replaces an existing delegation of the same delegate, and refuses one of another delegate", async () => {
    const alice = await fx.party("alice");
    const other = await fx.party("other-delegate");
    const first = await delegate(alice);
    const second = await delegate(alice, fx.validator, first);
    expect(await fx.client.contract(MintingDelegation, first)).toBeUndefined();
    const foreign = await delegate(alice, other);
    const delegation: MintingDelegationPayload = { beneficiary: alice, delegate: fx.validator, dso: fx.dso, expiresAt: fx.clock.now() + DAY, amuletMergeLimit: 5n };
    const proposal = await fx.client.create([alice], MintingDelegationProposal, { delegation });
    await expectRefused(fx, [alice], "DAML_INTERPRETATION_ERROR", "existing delegate", () =>
      act(fx, [fx.validator], MintingDelegationProposal, proposal, "MintingDelegationProposal_Accept", { existingDelegationCid: foreign }),
    );
    expect(await fx.client.contract(MintingDelegation, second)).toBeDefined();
    expect(await fx.client.contract(MintingDelegation, foreign)).toBeDefined();
  });

  it("refuses minting after expiry, by the beneficiary, or with someone else's holdings", async () => {
    const alice = await fx.party("alice");
    const bob = await fx.party("bob");
    const short = await delegate(alice, fx.validator, null, 60n * SECOND);
    const a = await fx.tap(alice, "10");
    const b = await fx.tap(bob, "10");
    await expectRefused(fx, [alice], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () => mint(short, amuletInputs([a]), undefined, alice));
    await expectRefused(fx, [alice, bob], "DAML_INTERPRETATION_ERROR", "is owned by the sender", () => mint(short, amuletInputs([a, b])));
    await fx.advance(61n * SECOND);
    await expectRefused(fx, [alice], "DAML_INTERPRETATION_ERROR", "expiresAt is in the future", () => mint(short, amuletInputs([a])));
  });

  it("proposals can be rejected by the delegate or withdrawn by the beneficiary; delegations likewise", async () => {
    const alice = await fx.party("alice");
    const delegation: MintingDelegationPayload = { beneficiary: alice, delegate: fx.validator, dso: fx.dso, expiresAt: fx.clock.now() + DAY, amuletMergeLimit: 5n };
    const p1 = await fx.client.create([alice], MintingDelegationProposal, { delegation });
    await expectRefused(fx, [alice], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () =>
      act(fx, [alice], MintingDelegationProposal, p1, "MintingDelegationProposal_Accept", { existingDelegationCid: null }),
    );
    expect(await act(fx, [fx.validator], MintingDelegationProposal, p1, "MintingDelegationProposal_Reject", {})).toEqual({ dummyUnitField: {} });
    const p2 = await fx.client.create([alice], MintingDelegationProposal, { delegation });
    await act(fx, [alice], MintingDelegationProposal, p2, "MintingDelegationProposal_Withdraw", {});
    const d1 = await delegate(alice);
    await act(fx, [fx.validator], MintingDelegation, d1, "MintingDelegation_Reject", {});
    const d2 = await delegate(alice);
    await expectRefused(fx, [alice], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () => act(fx, [fx.validator], MintingDelegation, d2, "MintingDelegation_Withdraw", {}));
    await act(fx, [alice], MintingDelegation, d2, "MintingDelegation_Withdraw", {});
    for (const cid of [p1, p2]) expect(await fx.client.contract(MintingDelegationProposal, cid)).toBeUndefined();
    for (const cid of [d1, d2]) expect(await fx.client.contract(MintingDelegation, cid)).toBeUndefined();
  });
});

describe("MergeDelegation and BatchMergeUtility", () => {
  const empty = () => ({ values: new Map<string, string>() });
  let utility: string;

  async function delegation(owner: string): Promise<string> {
    const proposal = await fx.client.create([owner], MergeDelegationProposal, { delegation: { operator: fx.validator, owner, meta: empty() } });
    const r = await act<MergeDelegationProposalPayload, { mergeDelegationCid: string }>(fx, [fx.validator], MergeDelegationProposal, proposal, "MergeDelegationProposal_Accept", {});
    return r.mergeDelegationCid;
  }

  async function transferCall(sender: string, receiver: string, amount: string, inputs: string[]): Promise<TransferCall> {
    const s = await fx.network();
    const round = await fx.openRound();
    const now = fx.clock.now();
    return {
      factoryCid: s.rules.contractId,
      choiceArg: {
        expectedAdmin: fx.dso,
        transfer: { sender, receiver, amount: Numeric.parse(amount), instrumentId: { admin: fx.dso, id: "Amulet" }, requestedAt: now, executeBefore: now + DAY, inputHoldingCids: inputs, meta: empty() },
        extraArgs: {
          context: {
            values: new Map([
              ["amulet-rules", { tag: "AV_ContractId" as const, value: s.rules.contractId }],
              ["open-round", { tag: "AV_ContractId" as const, value: round.contractId }],
            ]),
          },
          meta: empty(),
        },
      },
    };
  }

  const mergeArg = (merge: TransferCall | null, extra: TransferCall | null = null, featured: MergeDelegationMergeArg["optFeaturedAppRight"] = null): MergeDelegationMergeArg => ({
    optMergeTransfer: merge,
    optExtraTransfer: extra,
    optFeaturedAppRight: featured,
  });

  const batch = (calls: { delegationCid: string; choiceArg: MergeDelegationMergeArg }[], choice = "BatchMergeUtility_BatchMerge") =>
    act<BatchMergeUtilityPayload, { results: MergeDelegationMergeResult[]; operatorChangeMap: [unknown, string[]][] }>(fx, [fx.validator], BatchMergeUtility, utility, choice, { mergeCalls: calls });

  async function owner(hint: string, taps: string[]) {
    const party = await fx.party(hint);
    const holdings: string[] = [];
    for (const a of taps) holdings.push(await fx.tap(party, a));
    return { party, holdings, delegationCid: await delegation(party) };
  }

  beforeAll(async () => {
    utility = await fx.client.create([fx.validator], BatchMergeUtility, { operator: fx.validator });
  });

  it("merges many owners' holdings in one batch", async () => {
    const o1 = await owner("o1", ["1", "2", "3"]);
    const o2 = await owner("o2", ["0.5", "0.25"]);
    const { results } = await batch([
      { delegationCid: o1.delegationCid, choiceArg: mergeArg(await transferCall(o1.party, o1.party, "6", o1.holdings)) },
      { delegationCid: o2.delegationCid, choiceArg: mergeArg(await transferCall(o2.party, o2.party, "0.75", o2.holdings)) },
    ]);
    expect(await amounts(fx, o1.party)).toEqual(["6.0000000000"]);
    expect(await amounts(fx, o2.party)).toEqual(["0.7500000000"]);
    expect(results[0]!.optMergeTransferResult?.output).toEqual({
      tag: "TransferInstructionResult_Completed",
      value: { receiverHoldingCids: [(await fx.holdings(o1.party))[0]!.contractId] },
    });
    expect(results[0]!.optMergeTransferResult?.senderChangeCids).toEqual([]);
    expect(results[1]!.optExtraTransferResult).toBeNull();
  });

  it("airdrops from the operator with the merges, threading the operator's change through the batch", async () => {
    const o1 = await owner("a1", ["1", "2"]);
    const o2 = await owner("a2", ["4"]);
    const funds = await fx.tap(fx.validator, "100");
    // Both extra transfers name the same operator holding: the second must spend the first's change.
    const { results, operatorChangeMap } = await batch([
      { delegationCid: o1.delegationCid, choiceArg: mergeArg(await transferCall(o1.party, o1.party, "3", o1.holdings), await transferCall(fx.validator, o1.party, "5", [funds])) },
      { delegationCid: o2.delegationCid, choiceArg: mergeArg(await transferCall(o2.party, o2.party, "4", o2.holdings), await transferCall(fx.validator, o2.party, "5", [funds])) },
    ]);
    expect(await amounts(fx, o1.party)).toEqual(["8.0000000000"]);
    expect(await amounts(fx, o2.party)).toEqual(["9.0000000000"]);
    expect(operatorChangeMap).toHaveLength(1);
    const [instrument, change] = operatorChangeMap[0]!;
    expect(instrument).toEqual({ admin: fx.dso, id: "Amulet" });
    expect(change).toEqual(results[1]!.optExtraTransferResult?.senderChangeCids);
    const left = (await fx.holdings(fx.validator)).find((h) => h.contractId === change[0]);
    expect(left?.payload.amount.initialAmount.toString()).toBe("90.0000000000");
  });

  it("a featured operator earns the featured app reward of a merge; MergeHoldings is the same choice", async () => {
    const o = await owner("f1", ["1", "1"]);
    const [right] = await fx.client.active(FeaturedAppRight, [fx.validator]);
    const before = (await fx.client.active(AppRewardCoupon, [fx.validator])).map((c) => c.contractId);
    const featured = { appRightCid: right!.contractId, beneficiaries: [{ beneficiary: fx.validator, weight: Numeric.parse("1") }] };
    await batch([{ delegationCid: o.delegationCid, choiceArg: mergeArg(await transferCall(o.party, o.party, "2", o.holdings), null, featured) }], "BatchMergeUtility_MergeHoldings");
    expect(await amounts(fx, o.party)).toEqual(["2.0000000000"]);
    const fresh = (await fx.client.active(AppRewardCoupon, [fx.validator])).filter((c) => !before.includes(c.contractId));
    expect(fresh.map((c) => [c.payload.featured, c.payload.amount.toString()])).toEqual([[true, "200.0000000000"]]);
  });

  it("refuses merges that are not the owner's self-transfer, by anyone but the operator, or after a withdraw", async () => {
    const o = await owner("r1", ["1", "2"]);
    const thief = await fx.party("thief");
    const parties = [o.party, thief, fx.validator];
    const toThief = await transferCall(o.party, thief, "3", o.holdings);
    await expectRefused(fx, parties, "DAML_INTERPRETATION_ERROR", "self-transfer of the owner", () => batch([{ delegationCid: o.delegationCid, choiceArg: mergeArg(toThief) }]));
    await expectRefused(fx, parties, "DAML_INTERPRETATION_ERROR", "At least one of optMergeTransfer or optExtraTransfer", () =>
      batch([{ delegationCid: o.delegationCid, choiceArg: mergeArg(null) }]),
    );
    const fromOwner = await transferCall(o.party, o.party, "1", [o.holdings[0]!]);
    await expectRefused(fx, parties, "DAML_INTERPRETATION_ERROR", "from the operator to the owner", () =>
      batch([{ delegationCid: o.delegationCid, choiceArg: mergeArg(null, fromOwner) }]),
    );
    const self = await transferCall(o.party, o.party, "3", o.holdings);
    await expectRefused(fx, parties, "DAML_AUTHORIZATION_ERROR", "requires authorizers", () =>
      act(fx, [o.party], MergeDelegation, o.delegationCid, "MergeDelegation_Merge", mergeArg(self)),
    );
    const foreignUtility = await fx.client.create([thief], BatchMergeUtility, { operator: thief });
    // Another operator's utility cannot even read the delegation.
    await expectRefused(fx, parties, "DAML_AUTHORIZATION_ERROR", "requires one of its stakeholders", () =>
      act(fx, [thief], BatchMergeUtility, foreignUtility, "BatchMergeUtility_BatchMerge", { mergeCalls: [{ delegationCid: o.delegationCid, choiceArg: mergeArg(self) }] }),
    );
    await act(fx, [o.party], MergeDelegation, o.delegationCid, "MergeDelegation_Withdraw", {});
    await expectRefused(fx, parties, "CONTRACT_NOT_FOUND", o.delegationCid, () => batch([{ delegationCid: o.delegationCid, choiceArg: mergeArg(self) }]));
    expect(await amounts(fx, o.party)).toEqual(["1.0000000000", "2.0000000000"]);
  });

  it("proposals need the operator to accept; they can be rejected or withdrawn", async () => {
    const alice = await fx.party("alice");
    const p1 = await fx.client.create([alice], MergeDelegationProposal, { delegation: { operator: fx.validator, owner: alice, meta: empty() } });
    await expectRefused(fx, [alice], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () => act(fx, [alice], MergeDelegationProposal, p1, "MergeDelegationProposal_Accept", {}));
    expect(await act(fx, [fx.validator], MergeDelegationProposal, p1, "MergeDelegationProposal_Reject", {})).toEqual({ result: {} });
    const p2 = await fx.client.create([alice], MergeDelegationProposal, { delegation: { operator: fx.validator, owner: alice, meta: empty() } });
    await act(fx, [alice], MergeDelegationProposal, p2, "MergeDelegationProposal_Withdraw", {});
    const d = await delegation(alice);
    await act(fx, [fx.validator], MergeDelegation, d, "MergeDelegation_Reject", {});
    for (const cid of [p1, p2]) expect(await fx.client.contract(MergeDelegationProposal, cid)).toBeUndefined();
    expect(await fx.client.contract(MergeDelegation, d)).toBeUndefined();
  });
});
