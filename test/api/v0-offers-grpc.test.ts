/**
 * The offer, traffic and history endpoints on the gRPC port (buf-generated Connect client over
 * the gRPC protocol): the same use cases as the JSON routes, refusals as gRPC status codes, and
 * the results on `/v2`.
 */
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransferOfferFailureKind } from "../../gen/ccwallet/wallet/v0/wallet_external_pb.js";
import { WalletService } from "../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { AMULET, startOffers, TRANSFER_OFFER, type OffersFixture, type WalletUserHandle } from "./v0-offers-support.js";

const HOUR = 3_600_000_000n;

let o: OffersFixture;
let wallet: Client<typeof WalletService>;
let alice: WalletUserHandle;
let bob: WalletUserHandle;
let n = 0;
const as = (who: WalletUserHandle) => ({ headers: { authorization: `Bearer ${who.token}` } });

async function codeOf(p: Promise<unknown>): Promise<{ code: Code; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ConnectError) return { code: e.code, message: e.rawMessage };
    throw e;
  }
  throw new Error("expected a ConnectError");
}

beforeAll(async () => {
  o = await startOffers();
  wallet = createClient(WalletService, createGrpcTransport({ baseUrl: o.fx.t.grpc }));
  alice = await o.onboard("alice");
  bob = await o.onboard("bob");
  await o.fx.tap(alice.party, "1000");
  await o.settle();
});
afterAll(() => o?.fx.stop());

const offer = (to: WalletUserHandle, extra: Partial<{ amount: string; trackingId: string; expiresAt: bigint }> = {}) => ({
  receiverPartyId: to.party,
  amount: "7",
  description: "over gRPC",
  expiresAt: o.fx.clock.now() + HOUR,
  trackingId: `grpc-${++n}`,
  ...extra,
});

describe("WalletService over gRPC", () => {
  it("offer → accept → completed by the sender's wallet; status, lists and history as messages", async () => {
    const req = offer(bob);
    const { offerContractId } = await wallet.createTransferOffer(req, as(alice));
    expect((await o.acs(bob, TRANSFER_OFFER)).map((c) => c.contractId)).toContain(offerContractId);
    expect((await wallet.listTransferOffers({}, as(bob))).offers.map((c) => c.contractId)).toContain(offerContractId);
    const created = await wallet.getTransferOfferStatus({ trackingId: req.trackingId }, as(alice));
    expect(created.status).toMatchObject({ case: "created", value: { contractId: offerContractId } });

    const { acceptedOfferContractId } = await wallet.acceptTransferOffer({ contractId: offerContractId }, as(bob));
    expect(acceptedOfferContractId).toMatch(/^00[0-9a-f]+$/);
    await o.settle();
    expect((await wallet.listAcceptedTransferOffers({}, as(alice))).acceptedOffers).toEqual([]);
    const done = await wallet.getTransferOfferStatus({ trackingId: req.trackingId }, as(alice));
    expect(done.status.case).toBe("completed");
    const receiverAmulet = done.status.case === "completed" ? done.status.value.contractId : "";
    expect((await o.acs(bob, AMULET)).find((c) => c.contractId === receiverAmulet)?.createArgument.amount.initialAmount).toBe("7.0000000000");

    const { items } = await wallet.listTransactions({ pageSize: 10n }, as(bob));
    expect(items[0].transactionType).toMatchObject({ case: "transfer", value: { receivers: [{ party: bob.party, amount: "7.0000000000" }] } });
    expect(items[0].transactionSubtype?.choice).toBe("AcceptedTransferOffer_Complete");
  });

  it("reject and withdraw; failures as the status oneof", async () => {
    const r = offer(bob);
    const { offerContractId: rejected } = await wallet.createTransferOffer(r, as(alice));
    await wallet.rejectTransferOffer({ contractId: rejected }, as(bob));
    expect((await wallet.getTransferOfferStatus({ trackingId: r.trackingId }, as(alice))).status).toMatchObject({
      case: "failed",
      value: { failureKind: TransferOfferFailureKind.REJECTED },
    });
    const w = offer(bob);
    const { offerContractId: withdrawn } = await wallet.createTransferOffer(w, as(alice));
    await wallet.withdrawTransferOffer({ contractId: withdrawn }, as(alice));
    expect((await wallet.getTransferOfferStatus({ trackingId: w.trackingId }, as(alice))).status).toMatchObject({
      case: "failed",
      value: { failureKind: TransferOfferFailureKind.WITHDRAWN, withdrawnReason: "withdrawn by the sender" },
    });
  });

  it("buys traffic and reports it", async () => {
    const trackingId = `grpc-traffic-${++n}`;
    const { requestContractId } = await wallet.createBuyTrafficRequest(
      { receivingValidatorPartyId: alice.party, domainId: o.fx.t.server.api.identity.synchronizerId, trafficAmount: 200_000n, trackingId, expiresAt: o.fx.clock.now() + HOUR },
      as(alice),
    );
    expect(requestContractId).toMatch(/^00[0-9a-f]+$/);
    await o.settle();
    const st = await wallet.getBuyTrafficRequestStatus({ trackingId }, as(alice));
    expect(st.status.case).toBe("completed");
    const unknown = await codeOf(wallet.getBuyTrafficRequestStatus({ trackingId: "nope" }, as(alice)));
    expect(unknown.code).toBe(Code.NotFound);
  });

  it("answers refusals with gRPC codes and changes nothing", async () => {
    const before = (await o.acs(alice, TRANSFER_OFFER)).length;
    expect((await codeOf(wallet.createTransferOffer(offer(bob, { amount: "0" }), as(alice)))).code).toBe(Code.InvalidArgument);
    expect((await codeOf(wallet.createTransferOffer(offer(bob, { amount: "1.12345678901" }), as(alice)))).code).toBe(Code.InvalidArgument);
    expect((await codeOf(wallet.createTransferOffer(offer(bob, { expiresAt: 0n }), as(alice)))).code).toBe(Code.InvalidArgument);
    expect((await codeOf(wallet.createTransferOffer({ ...offer(bob), receiverPartyId: "" }, as(alice)))).code).toBe(Code.InvalidArgument);
    expect((await codeOf(wallet.createTransferOffer(offer(bob, { trackingId: "" }), as(alice)))).code).toBe(Code.InvalidArgument);
    expect((await codeOf(wallet.createTransferOffer(offer(bob), {}))).code).toBe(Code.Unauthenticated);
    expect((await o.acs(alice, TRANSFER_OFFER)).length).toBe(before);

    const req = offer(bob);
    const { offerContractId } = await wallet.createTransferOffer(req, as(alice));
    expect(await codeOf(wallet.createTransferOffer(req, as(alice)))).toEqual({
      code: Code.AlreadyExists,
      message: `a transfer offer with tracking id "${req.trackingId}" has already been created; check its status`,
    });
    expect((await codeOf(wallet.acceptTransferOffer({ contractId: offerContractId }, as(alice)))).code).toBe(Code.NotFound);
    expect((await codeOf(wallet.withdrawTransferOffer({ contractId: offerContractId }, as(bob)))).code).toBe(Code.NotFound);
    expect((await codeOf(wallet.rejectTransferOffer({ contractId: "" }, as(bob)))).code).toBe(Code.NotFound);
    expect((await codeOf(wallet.getTransferOfferStatus({ trackingId: "nope" }, as(alice)))).code).toBe(Code.NotFound);
    expect((await codeOf(wallet.listTransactions({ pageSize: 0n }, as(alice)))).code).toBe(Code.InvalidArgument);
    expect((await o.acs(bob, TRANSFER_OFFER)).map((c) => c.contractId)).toContain(offerContractId);
  });
});
