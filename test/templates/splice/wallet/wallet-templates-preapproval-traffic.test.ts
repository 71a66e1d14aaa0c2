import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../../../src/ledger/numeric.js";
import type { ContractRecord } from "../../../../src/ledger/records.js";
import { FeaturedAppRight, MemberTraffic, TransferPreapproval } from "../../../../src/templates/splice/index.js";
import {
  AcceptedTransferOffer,
  BuyTrafficRequest,
  TransferOffer,
  TransferPreapprovalProposal,
  WalletAppInstall,
  type BuyTrafficRequestPayload,
  type TransferPreapprovalProposalPayload,
  type WalletAppInstallPayload,
} from "../../../../src/templates/splice/wallet/index.js";
import { startCc, type CcFixture } from "../../../support/cc-fixture.js";
import { act, amounts, amuletInputs, DAY, expectRefused, paymentContext, recordOf, SECOND } from "./wallet-templates-helpers.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

describe("TransferPreapprovalProposal", () => {
  /** Senders are not stakeholders of a preapproval: wallets get it disclosed (by scan). */
  const disclosures = new Map<string, ContractRecord>();
  async function propose(receiver: string, expectedDso: string | null = fx.dso) {
    return fx.client.create([receiver], TransferPreapprovalProposal, { receiver, provider: fx.validator, expectedDso });
  }
  async function acceptProposal(cid: string, inputs: string[], expiresAt: bigint, provider = fx.validator) {
    const result = await act<TransferPreapprovalProposalPayload, { transferPreapprovalCid: string; amuletPaid: Numeric }>(fx, [provider], TransferPreapprovalProposal, cid, "TransferPreapprovalProposal_Accept", {
      context: await paymentContext(fx),
      inputs: amuletInputs(inputs),
      expiresAt,
    });
    disclosures.set(result.transferPreapprovalCid, await recordOf(fx, TransferPreapproval, result.transferPreapprovalCid));
    return result;
  }
  async function send(preapproval: string, sender: string, inputs: string[], amount: string) {
    const record = disclosures.get(preapproval)!;
    const arg = { context: await paymentContext(fx), inputs: amuletInputs(inputs), amount: Numeric.parse(amount), sender, description: null };
    return act(fx, [sender], TransferPreapproval, preapproval, "TransferPreapproval_Send", arg, [record]);
  }

  it("the provider accepts and pays the lifetime fee; senders then transfer in one step", async () => {
    const receiver = await fx.party("receiver");
    const sender = await fx.party("sender");
    const before = await amounts(fx, fx.validator);
    const fee = await fx.tap(fx.validator, "100");
    const proposal = await propose(receiver);
    const expiresAt = fx.clock.now() + 90n * DAY;
    const { transferPreapprovalCid, amuletPaid } = await acceptProposal(proposal, [fee], expiresAt);
    // 90 days × (1 USD / 365 = 0.0027397260 USD/day) = 0.2465753400 USD; / 0.005 USD/CC
    expect(amuletPaid.toString()).toBe("49.3150680000");
    expect(await amounts(fx, fx.validator)).toEqual([...before, "50.6849320000"].sort((a, b) => Number(a) - Number(b)));
    const pre = await fx.client.contract(TransferPreapproval, transferPreapprovalCid);
    expect(pre?.payload).toMatchObject({ receiver, provider: fx.validator, dso: fx.dso, expiresAt });
    expect(await fx.client.contract(TransferPreapprovalProposal, proposal)).toBeUndefined();

    const coins = await fx.tap(sender, "20");
    await send(transferPreapprovalCid, sender, [coins], "5");
    expect(await amounts(fx, receiver)).toEqual(["5.0000000000"]);
    expect(await amounts(fx, sender)).toEqual(["15.0000000000"]);
  });

  it("refuses sending through a cancelled or an expired preapproval, nothing moves", async () => {
    const receiver = await fx.party("receiver");
    const sender = await fx.party("sender");
    const coins = await fx.tap(sender, "20");
    const cancelled = await acceptProposal(await propose(receiver), [await fx.tap(fx.validator, "20")], fx.clock.now() + 30n * DAY);
    await send(cancelled.transferPreapprovalCid, sender, [await fx.tap(sender, "1")], "1");
    await act(fx, [receiver], TransferPreapproval, cancelled.transferPreapprovalCid, "TransferPreapproval_Cancel", { p: receiver });
    await expectRefused(fx, [sender, receiver], "CONTRACT_NOT_FOUND", cancelled.transferPreapprovalCid, () => send(cancelled.transferPreapprovalCid, sender, [coins], "5"));

    const short = await acceptProposal(await propose(receiver), [await fx.tap(fx.validator, "10")], fx.clock.now() + 60n * SECOND);
    await fx.advance(61n * SECOND);
    // The DSO's automation archives expired preapprovals at once; if it has not yet, the template refuses.
    const stillThere = await fx.client.contract(TransferPreapproval, short.transferPreapprovalCid);
    await expectRefused(fx, [sender, receiver], stillThere ? "DAML_INTERPRETATION_ERROR" : "CONTRACT_NOT_FOUND", stillThere ? "expired" : short.transferPreapprovalCid, () =>
      send(short.transferPreapprovalCid, sender, [coins], "5"),
    );
    expect(await amounts(fx, receiver)).toEqual(["1.0000000000"]);
  });

  it("refuses acceptance by the receiver, for another DSO, or with a past expiry", async () => {
    const receiver = await fx.party("receiver");
    const fee = await fx.tap(fx.validator, "10");
    const proposal = await propose(receiver);
    await expectRefused(fx, [fx.validator, receiver], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () =>
      acceptProposal(proposal, [fee], fx.clock.now() + DAY, receiver),
    );
    await expectRefused(fx, [fx.validator], "DAML_INTERPRETATION_ERROR", "expiresAt is not in the past", () => acceptProposal(proposal, [fee], fx.clock.now() - SECOND));
    const elsewhere = await propose(receiver, await fx.party("other-dso"));
    await expectRefused(fx, [fx.validator], "DAML_INTERPRETATION_ERROR", "belongs to the DSO", () => acceptProposal(elsewhere, [fee], fx.clock.now() + DAY));
    expect(await fx.client.contract(TransferPreapprovalProposal, proposal)).toBeDefined();
  });
});

describe("BuyTrafficRequest", () => {
  async function request(user: string, trafficAmount = 200_000n, ttl = DAY): Promise<string> {
    const s = await fx.network();
    const payload: BuyTrafficRequestPayload = {
      dso: fx.dso,
      endUserParty: user,
      expiresAt: fx.clock.now() + ttl,
      trackingId: `traffic-${Math.random()}`,
      trafficAmount,
      memberId: "PAR::validator::1220",
      synchronizerId: s.rules.payload.configSchedule.initialValue.decentralizedSynchronizer.activeSynchronizer,
      migrationId: 0n,
    };
    return fx.client.create([user], BuyTrafficRequest, payload);
  }
  const complete = async (user: string, cid: string, inputs: string[]) =>
    act<BuyTrafficRequestPayload, { purchasedTraffic: string; trackingInfo: { endUserParty: string }; senderChangeAmulet: string | null }>(
      fx,
      [user, fx.validator],
      BuyTrafficRequest,
      cid,
      "BuyTrafficRequest_Complete",
      { inputs: amuletInputs(inputs), context: await paymentContext(fx), walletProvider: fx.validator },
    );

  it("completing pays the traffic price in CC from the user's holdings", async () => {
    const user = await fx.party("user");
    const coins = await fx.tap(user, "1000");
    const cid = await request(user);
    const result = await complete(user, cid, [coins]);
    expect(result.trackingInfo.endUserParty).toBe(user);
    const traffic = await fx.client.contract(MemberTraffic, result.purchasedTraffic);
    // 0.2 MB × 16.67 USD/MB = 3.334 USD; / 0.005 USD/CC = 666.8 CC
    expect(traffic?.payload.totalPurchased).toBe(200_000n);
    expect(traffic?.payload.amuletSpent.toString()).toBe("666.8000000000");
    expect(await amounts(fx, user)).toEqual(["333.2000000000"]);
    expect((await fx.holdings(user))[0]!.contractId).toBe(result.senderChangeAmulet);
    expect(await fx.client.contract(BuyTrafficRequest, cid)).toBeUndefined();
  });

  it("refuses a top-up below the minimum, completing without the provider, and cancel/complete after expiry", async () => {
    const user = await fx.party("user");
    const coins = await fx.tap(user, "1000");
    const small = await request(user, 1000n);
    await expectRefused(fx, [user], "DAML_INTERPRETATION_ERROR", "ITR_InsufficientTopupAmount", () => complete(user, small, [coins]));
    await expectRefused(fx, [user], "DAML_AUTHORIZATION_ERROR", "requires authorizers", async () =>
      act(fx, [user], BuyTrafficRequest, small, "BuyTrafficRequest_Complete", { inputs: amuletInputs([coins]), context: await paymentContext(fx), walletProvider: fx.validator }),
    );
    expect(await act(fx, [user], BuyTrafficRequest, small, "BuyTrafficRequest_Cancel", { reason: "too small" })).toMatchObject({ trackingInfo: { endUserParty: user } });

    const expiring = await request(user, 200_000n, 60n * SECOND);
    await expectRefused(fx, [user], "DAML_INTERPRETATION_ERROR", "Contract has expired", () => act(fx, [user], BuyTrafficRequest, expiring, "BuyTrafficRequest_Expire", {}));
    await fx.advance(61n * SECOND);
    await expectRefused(fx, [user], "DAML_INTERPRETATION_ERROR", "Contract has not expired", () => complete(user, expiring, [coins]));
    await expectRefused(fx, [user], "DAML_INTERPRETATION_ERROR", "Contract has not expired", () =>
      act(fx, [user], BuyTrafficRequest, expiring, "BuyTrafficRequest_Cancel", { reason: "late" }),
    );
    await act(fx, [user], BuyTrafficRequest, expiring, "BuyTrafficRequest_Expire", {});
    expect(await amounts(fx, user)).toEqual(["1000.0000000000"]);
  });
});

describe("WalletAppInstall", () => {
  async function install(user: string, name: string): Promise<string> {
    return fx.client.create([user, fx.validator], WalletAppInstall, { dsoParty: fx.dso, validatorParty: fx.validator, endUserName: name, endUserParty: user });
  }

  it("needs both the user and the validator to install", async () => {
    const user = await fx.party("user");
    const payload = { dsoParty: fx.dso, validatorParty: fx.validator, endUserName: "u", endUserParty: user };
    await expectRefused(fx, [user], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () => fx.client.create([user], WalletAppInstall, payload));
    await expectRefused(fx, [user], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () => fx.client.create([fx.validator], WalletAppInstall, payload));
    const cid = await install(user, "u");
    expect([...((await fx.client.contract(WalletAppInstall, cid))?.record.signatories ?? [])].sort()).toEqual([user, fx.validator].sort());
  });

  it("lets the validator run the user's transfer-offer and traffic workflows", async () => {
    const alice = await fx.party("alice");
    const bob = await fx.party("bob");
    const aliceInstall = await install(alice, "alice");
    const bobInstall = await install(bob, "bob");
    const { transferOffer } = await act<WalletAppInstallPayload, { transferOffer: string }>(fx, [fx.validator], WalletAppInstall, aliceInstall, "WalletAppInstall_CreateTransferOffer", {
      receiver: bob,
      amount: { amount: Numeric.parse("2"), unit: "AmuletUnit" },
      description: "via install",
      expiresAt: fx.clock.now() + DAY,
      trackingId: "install-offer-1",
    });
    expect((await fx.client.contract(TransferOffer, transferOffer))?.payload).toMatchObject({ sender: alice, receiver: bob, dso: fx.dso });
    const { acceptedTransferOffer } = await act<WalletAppInstallPayload, { acceptedTransferOffer: string }>(fx, [fx.validator], WalletAppInstall, bobInstall, "WalletAppInstall_TransferOffer_Accept", {
      cid: transferOffer,
    });
    const withdrawn = await act(fx, [fx.validator], WalletAppInstall, bobInstall, "WalletAppInstall_AcceptedTransferOffer_Withdraw", { cid: acceptedTransferOffer, reason: "r" });
    expect(withdrawn).toEqual({ trackingInfo: { trackingId: "install-offer-1", sender: alice, receiver: bob } });
    expect(await fx.client.contract(AcceptedTransferOffer, acceptedTransferOffer)).toBeUndefined();

    const s = await fx.network();
    const { buyTrafficRequest } = await act<WalletAppInstallPayload, { buyTrafficRequest: string }>(fx, [fx.validator], WalletAppInstall, aliceInstall, "WalletAppInstall_CreateBuyTrafficRequest", {
      memberId: "PAR::x",
      synchronizerId: s.rules.payload.configSchedule.initialValue.decentralizedSynchronizer.activeSynchronizer,
      migrationId: 0n,
      trafficAmount: 200_000n,
      expiresAt: fx.clock.now() + DAY,
      trackingId: "install-traffic-1",
    });
    const cancelled = await act(fx, [fx.validator], WalletAppInstall, aliceInstall, "WalletAppInstall_BuyTrafficRequest_Cancel", { requestCid: buyTrafficRequest, reason: "r" });
    expect(cancelled).toEqual({ trackingInfo: { trackingId: "install-traffic-1", endUserParty: alice } });

    const { featuredAppRight } = await act<WalletAppInstallPayload, { featuredAppRight: string }>(fx, [fx.validator], WalletAppInstall, aliceInstall, "WalletAppInstall_FeaturedAppRights_SelfGrant", {
      amuletRulesCid: s.rules.contractId,
    });
    expect((await fx.client.contract(FeaturedAppRight, featuredAppRight))?.payload.provider).toBe(alice);
    await act(fx, [fx.validator], WalletAppInstall, aliceInstall, "WalletAppInstall_FeaturedAppRights_Cancel", { cid: featuredAppRight });
    expect(await fx.client.contract(FeaturedAppRight, featuredAppRight)).toBeUndefined();
  });

  it("refuses install choices from anyone but the validator", async () => {
    const alice = await fx.party("alice");
    const cid = await install(alice, "alice2");
    await expectRefused(fx, [alice], "DAML_AUTHORIZATION_ERROR", "requires authorizers", () =>
      act(fx, [alice], WalletAppInstall, cid, "WalletAppInstall_CreateTransferOffer", {
        receiver: alice,
        amount: { amount: Numeric.parse("1"), unit: "AmuletUnit" },
        description: "",
        expiresAt: fx.clock.now() + DAY,
        trackingId: "x",
      }),
    );
  });
});
