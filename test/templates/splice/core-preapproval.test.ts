/**
 * TransferPreapproval: the fee burnt for its lifetime (days × 1/365 USD at 0.005 USD/CC), one-step
 * sends, renewal, cancel, expiry, and the external-party setup that creates one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choiceOf } from "../../support/choice-of.js";
import {
  ExternalPartySetupProposal,
  TransferPreapproval,
  ValidatorRewardCoupon,
  ValidatorRight,
  type ExternalPartySetupProposalPayload,
  type TransferPreapprovalPayload,
} from "../../../src/templates/splice/index.js";
import { amuletInput, refused, startCc, type CcFixture } from "../../support/cc-fixture.js";

const DAY = 86_400_000_000n;
const META = "splice.lfdecentralizedtrust.org";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

async function preapproved(days: bigint) {
  const provider = await fx.party("provider");
  const receiver = await fx.party("receiver");
  const cid = await fx.tap(provider, "100");
  const result = await fx.createPreapproval(provider, receiver, [amuletInput(cid)], fx.clock.now() + days * DAY);
  return { provider, receiver, result };
}

async function exercisePreapproval<R>(actAs: string[], cid: string, choice: string, argument: unknown) {
  const pre = await fx.client.contract(TransferPreapproval, cid);
  const disclosed = [...(await fx.disclosed()), ...(pre ? [pre.record] : [])];
  const c = choiceOf<TransferPreapprovalPayload, unknown, R>(TransferPreapproval, choice);
  return (await fx.client.exercise(actAs, TransferPreapproval, cid, c, argument, { disclosed })).result;
}

describe("creating a TransferPreapproval", () => {
  it("burns 90 × (1/365 USD) / 0.005 from the provider and records it as validator activity", async () => {
    const open = await fx.openRound();
    const now = fx.clock.now();
    const { provider, receiver, result } = await preapproved(90n);
    // 90 × 0.0027397260 = 0.2465753400 USD; / 0.005 = 49.3150680000 CC
    expect(result.amuletPaid.toString()).toBe("49.3150680000");
    expect(result.transferResult.summary.holdingFees.toString()).toBe("0.0000000000");
    expect(result.meta?.values.get(`${META}/tx-kind`)).toBe("burn");
    expect(result.meta?.values.get(`${META}/burned`)).toBe("49.3150680000");
    expect(result.meta?.values.get(`${META}/reason`)).toBe("create TransferPreapproval");
    expect((await fx.balance(provider)).toString()).toBe("50.6849320000");
    const pre = await fx.client.contract(TransferPreapproval, result.transferPreapprovalCid);
    expect(pre?.payload).toEqual({ dso: fx.dso, receiver, provider, validFrom: now, lastRenewedAt: now, expiresAt: now + 90n * DAY });
    const coupons = (await fx.client.active(ValidatorRewardCoupon, [provider])).map((c) => c.payload);
    expect(coupons).toEqual([expect.objectContaining({ user: provider, round: { number: open.number } })]);
    expect(coupons[0].amount.toString()).toBe("49.3150680000");
    // The split-off fee holding is gone: the balance change nets out to the burn.
    const [[, change]] = result.transferResult.summary.balanceChanges;
    expect(change.changeToInitialAmountAsOfRoundZero.toString()).toBe("-49.3150680000");
  });

  it("converts the lifetime to days with Daml's half-even division (90 days + 4 minutes)", async () => {
    const provider = await fx.party("provider");
    const receiver = await fx.party("receiver");
    const cid = await fx.tap(provider, "100");
    const result = await fx.createPreapproval(provider, receiver, [amuletInput(cid)], fx.clock.now() + 90n * DAY + 240_000_000n);
    // 90.0027777777|8 days → 90.0027777778; × 0.0027397260 = 0.2465829504; / 0.005 = 49.3165900800
    expect(result.amuletPaid.toString()).toBe("49.3165900800");
  });

  it("needs the receiver's consent and enough funds; nothing changes otherwise", async () => {
    const provider = await fx.party("provider");
    const receiver = await fx.party("receiver");
    const cid = await fx.tap(provider, "10");
    const before = await fx.snapshot();
    const open = await fx.openRound();
    await refused(
      fx.rules([provider], "AmuletRules_CreateTransferPreapproval", {
        context: { amuletRules: (await fx.network()).rules.contractId, context: { openMiningRound: open.contractId, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null } },
        inputs: [amuletInput(cid)],
        receiver,
        provider,
        expiresAt: fx.clock.now() + 90n * DAY,
      }),
      /requires authorizers/,
    );
    await refused(fx.createPreapproval(provider, receiver, [amuletInput(cid)], fx.clock.now() + 90n * DAY), /InsufficientFunds \{missingAmount = 39\.3150680000\}/);
    await refused(fx.createPreapproval(provider, receiver, [amuletInput(cid)], fx.clock.now()), /expiresAt is not in the past/);
    expect(await fx.snapshot()).toEqual(before);
  });
});

describe("TransferPreapproval_Send", () => {
  it("moves CC to the receiver in one step, change back to the sender", async () => {
    const { receiver, result } = await preapproved(90n);
    const alice = await fx.party("alice");
    const cid = await fx.tap(alice, "10");
    const sent = await fx.send(alice, result.transferPreapprovalCid, [amuletInput(cid)], "3.5", { description: "rent" });
    expect((await fx.balance(receiver)).toString()).toBe("3.5000000000");
    expect((await fx.balance(alice)).toString()).toBe("6.5000000000");
    expect(sent.result.summary.senderChangeAmount.toString()).toBe("6.5000000000");
    expect(sent.result.meta).toBeNull();
    expect(sent.meta?.values.get(`${META}/reason`)).toBe("rent");
    expect(sent.meta?.values.get(`${META}/tx-kind`)).toBe("transfer");
    // non-consuming: the preapproval stays for the next sender
    expect(await fx.client.contract(TransferPreapproval, result.transferPreapprovalCid)).toBeDefined();
  });
});

describe("renewal and cancellation", () => {
  it("renews for the fee of the extension only, keeping validFrom", async () => {
    const { provider, receiver, result } = await preapproved(90n);
    const old = (await fx.client.contract(TransferPreapproval, result.transferPreapprovalCid))!.payload;
    await fx.advance(DAY);
    const [change] = await fx.holdings(provider);
    const renewed = await exercisePreapproval<{ transferPreapprovalCid: string; amuletPaid: { toString(): string }; receiver: string; provider: string }>(
      [provider],
      result.transferPreapprovalCid,
      "TransferPreapproval_Renew",
      { context: await fx.paymentContext(), inputs: [amuletInput(change.contractId)], newExpiresAt: old.expiresAt + 30n * DAY },
    );
    // 30 × 0.0027397260 = 0.0821917800 USD; / 0.005 = 16.4383560000 CC
    expect(renewed.amuletPaid.toString()).toBe("16.4383560000");
    expect([renewed.receiver, renewed.provider]).toEqual([receiver, provider]);
    expect(await fx.client.contract(TransferPreapproval, result.transferPreapprovalCid)).toBeUndefined();
    const next = (await fx.client.contract(TransferPreapproval, renewed.transferPreapprovalCid))!.payload;
    expect(next).toEqual({ ...old, lastRenewedAt: fx.clock.now(), expiresAt: old.expiresAt + 30n * DAY });
  });

  it("only the provider renews", async () => {
    const { receiver, result } = await preapproved(90n);
    const cid = await fx.tap(receiver, "100");
    const before = await fx.snapshot();
    const pre = (await fx.client.contract(TransferPreapproval, result.transferPreapprovalCid))!.payload;
    await refused(
      exercisePreapproval([receiver], result.transferPreapprovalCid, "TransferPreapproval_Renew", {
        context: await fx.paymentContext(),
        inputs: [amuletInput(cid)],
        newExpiresAt: pre.expiresAt + DAY,
      }),
      /requires authorizers/,
    );
    expect(await fx.snapshot()).toEqual(before);
  });

  it("is cancelled by the receiver or the provider, not by a third party", async () => {
    const a = await preapproved(90n);
    const b = await preapproved(90n);
    const mallory = await fx.party("mallory");
    const before = await fx.snapshot();
    await refused(exercisePreapproval([mallory], a.result.transferPreapprovalCid, "TransferPreapproval_Cancel", { p: mallory }), /is either receiver or provider/);
    await refused(exercisePreapproval([mallory], a.result.transferPreapprovalCid, "TransferPreapproval_Cancel", { p: a.receiver }), /requires authorizers/);
    expect(await fx.snapshot()).toEqual(before);
    await exercisePreapproval([a.receiver], a.result.transferPreapprovalCid, "TransferPreapproval_Cancel", { p: a.receiver });
    await exercisePreapproval([b.provider], b.result.transferPreapprovalCid, "TransferPreapproval_Cancel", { p: b.provider });
    expect(await fx.client.contract(TransferPreapproval, a.result.transferPreapprovalCid)).toBeUndefined();
    expect(await fx.client.contract(TransferPreapproval, b.result.transferPreapprovalCid)).toBeUndefined();
    // a cancelled preapproval cannot be used
    const alice = await fx.party("alice");
    const cid = await fx.tap(alice, "5");
    await refused(fx.send(alice, a.result.transferPreapprovalCid, [amuletInput(cid)], "1"), /could not be found/);
  });
});

describe("expiry", () => {
  it("past expiresAt it cannot be used, renewed or cancelled, and the DSO archives it", async () => {
    const receiver = await fx.party("receiver");
    const provider = await fx.party("provider");
    const now = fx.clock.now();
    // Made directly (as all three signatories) so that it is already expired before the DSO looks.
    const cid = await fx.client.create([fx.dso, receiver, provider], TransferPreapproval, {
      dso: fx.dso,
      receiver,
      provider,
      validFrom: now - 2n * DAY,
      lastRenewedAt: now - 2n * DAY,
      expiresAt: now,
    });
    const alice = await fx.party("alice");
    const coin = await fx.tap(alice, "5");
    const pcoin = await fx.tap(provider, "5");
    const before = await fx.snapshot();
    await refused(fx.send(alice, cid, [amuletInput(coin)], "1"), /TransferPreapproval\.expiresAt/);
    await refused(
      exercisePreapproval([provider], cid, "TransferPreapproval_Renew", { context: await fx.paymentContext(), inputs: [amuletInput(pcoin)], newExpiresAt: now + DAY }),
      /Contract is not expired/,
    );
    await refused(exercisePreapproval([receiver], cid, "TransferPreapproval_Cancel", { p: receiver }), /TransferPreapproval\.expiresAt/);
    expect(await fx.snapshot()).toEqual(before);
    await fx.advance(1n);
    expect(await fx.client.contract(TransferPreapproval, cid)).toBeUndefined();
  });

  it("a preapproval reaching its expiry is archived by the DSO and refuses sends", async () => {
    const { result } = await preapproved(1n);
    await fx.advance(DAY);
    expect(await fx.client.contract(TransferPreapproval, result.transferPreapprovalCid)).toBeUndefined();
    const alice = await fx.party("alice");
    const cid = await fx.tap(alice, "5");
    await refused(fx.send(alice, result.transferPreapprovalCid, [amuletInput(cid)], "1"), /could not be found/);
  });
});

describe("ExternalPartySetupProposal", () => {
  it("is paid by the validator; accepting it creates the ValidatorRight and the preapproval", async () => {
    const validator = await fx.party("validator");
    const user = await fx.party("external");
    const cid = await fx.tap(validator, "100");
    const createdAt = fx.clock.now();
    const expiresAt = createdAt + 90n * DAY;
    const made = await fx.rules<{ proposalCid: string; amuletPaid: { toString(): string } }>([validator], "AmuletRules_CreateExternalPartySetupProposal", {
      context: await fx.paymentContext(),
      inputs: [amuletInput(cid)],
      user,
      validator,
      preapprovalExpiresAt: expiresAt,
    });
    expect(made.amuletPaid.toString()).toBe("49.3150680000");
    expect((await fx.balance(validator)).toString()).toBe("50.6849320000");
    await fx.advance(DAY);
    const accept = choiceOf<ExternalPartySetupProposalPayload, unknown, { validatorRightCid: string; transferPreapprovalCid: string }>(
      ExternalPartySetupProposal,
      "ExternalPartySetupProposal_Accept",
    );
    const mallory = await fx.party("mallory");
    await refused(fx.client.exercise([mallory], ExternalPartySetupProposal, made.proposalCid, accept, {}), /could not be found|requires authorizers/);
    const { result } = await fx.client.exercise([user], ExternalPartySetupProposal, made.proposalCid, accept, {});
    expect((await fx.client.contract(ValidatorRight, result.validatorRightCid))?.payload).toEqual({ dso: fx.dso, user, validator });
    expect((await fx.client.contract(TransferPreapproval, result.transferPreapprovalCid))?.payload).toEqual({
      dso: fx.dso,
      receiver: user,
      provider: validator,
      validFrom: createdAt,
      lastRenewedAt: createdAt,
      expiresAt,
    });
    expect(await fx.client.contract(ExternalPartySetupProposal, made.proposalCid)).toBeUndefined();
  });

  it("cannot be accepted once the preapproval it would create has expired", async () => {
    const validator = await fx.party("validator-late");
    const user = await fx.party("external-late");
    const cid = await fx.tap(validator, "100");
    const made = await fx.rules<{ proposalCid: string }>([validator], "AmuletRules_CreateExternalPartySetupProposal", {
      context: await fx.paymentContext(),
      inputs: [amuletInput(cid)],
      user,
      validator,
      preapprovalExpiresAt: fx.clock.now() + DAY,
    });
    await fx.advance(DAY);
    const accept = choiceOf<ExternalPartySetupProposalPayload, unknown, unknown>(ExternalPartySetupProposal, "ExternalPartySetupProposal_Accept");
    await refused(fx.client.exercise([user], ExternalPartySetupProposal, made.proposalCid, accept, {}), /ExternalPartySetupProposal\.preapprovalExpiresAt/);
    expect(await fx.client.contract(ExternalPartySetupProposal, made.proposalCid)).toBeDefined();
  });
});
