/**
 * Two-step P2P transfers of the Splice wallet (splice-wallet `Splice.Wallet.TransferOffer`): the
 * sender offers, the receiver accepts, and the sender's wallet completes the accepted offer by
 * transferring the CC (a USD amount is converted at the open round's price at completion).
 * Every end state returns the tracking info the wallet's transaction log keys on.
 */
import { t, type ValueOf } from "../../../ledger/daml-type.js";
import { Numeric } from "../../../ledger/numeric.js";
import { choice, defineTemplate, type Template, type UpdateContext } from "../../../ledger/template.js";
import { spliceName, spliceType } from "../packages.js";
import { PaymentAmount, paymentAmountToAmulet } from "../payment.js";
import { PaymentTransferContext, TransferInput, TransferResult } from "../transfer-types.js";
import { exerciseTransfer, fetchOpenRound } from "./payment-transfer.js";

const MODULE = "Splice.Wallet.TransferOffer";
const ty = (entity: string) => spliceType("wallet", MODULE, entity);

export const TransferOfferTrackingInfo = t.record({ trackingId: t.text, sender: t.party, receiver: t.party }, ty("TransferOfferTrackingInfo"));
export type TransferOfferTrackingInfo = ValueOf<typeof TransferOfferTrackingInfo>;

const offerPayload = t.record({
  sender: t.party,
  receiver: t.party,
  dso: t.party,
  amount: PaymentAmount,
  description: t.text,
  expiresAt: t.time,
  trackingId: t.text,
});
export type TransferOfferPayload = ValueOf<typeof offerPayload>;

const acceptedPayload = t.record({
  sender: t.party,
  receiver: t.party,
  dso: t.party,
  amount: PaymentAmount,
  expiresAt: t.time,
  trackingId: t.text,
});
export type AcceptedTransferOfferPayload = ValueOf<typeof acceptedPayload>;

const trackingResult = (entity: string) => t.record({ trackingInfo: TransferOfferTrackingInfo }, ty(entity));
const trackingOf = (p: { trackingId: string; sender: string; receiver: string }) => ({
  trackingInfo: { trackingId: p.trackingId, sender: p.sender, receiver: p.receiver },
});

/** Daml `DA.Text.length` counts code points. */
const textLength = (s: string) => [...s].length;

/** The `_Expire{actor}` choices: only after expiry, by a stakeholder. */
function requireExpired(ctx: UpdateContext, expiresAt: bigint, actor: string, stakeholders: readonly string[]) {
  ctx.require(expiresAt <= ctx.ledgerTime, "Contract has expired");
  ctx.require(stakeholders.includes(actor), "Actor is a stakeholder");
}

export const AcceptedTransferOffer_Complete = choice({
  name: "AcceptedTransferOffer_Complete",
  consuming: true,
  argument: t.record({ inputs: t.list(TransferInput), transferContext: PaymentTransferContext, walletProvider: t.party }),
  result: t.record(
    { transferResult: TransferResult, trackingInfo: TransferOfferTrackingInfo, senderChangeAmulet: t.optional(t.contractId) },
    ty("AcceptedTransferOffer_CompleteResult"),
  ),
  controllers: (p: AcceptedTransferOfferPayload, arg) => [p.sender, arg.walletProvider],
  body: async (ctx, self, arg) => {
    const p = self.payload;
    ctx.require(ctx.ledgerTime < p.expiresAt, "Offer has not expired");
    const round = await fetchOpenRound(ctx, p.dso, arg.transferContext.context.openMiningRound, p.sender);
    const amount = paymentAmountToAmulet(ctx, p.dso, round, p.amount);
    // The transfer checks the round's DSO against the rules', so this also pins the rules to p.dso.
    const transferResult = await exerciseTransfer(ctx, arg.transferContext.amuletRules, arg.transferContext.context, {
      sender: p.sender,
      // The sender's wallet provider earns the app rewards of the transfer.
      provider: arg.walletProvider,
      inputs: arg.inputs,
      outputs: [{ receiver: p.receiver, amount, lock: null, receiverFeeRatio: Numeric.zero }],
      beneficiaries: null,
    });
    return { transferResult, ...trackingOf(p), senderChangeAmulet: transferResult.senderChangeAmulet };
  },
});

export const AcceptedTransferOffer_Withdraw = choice({
  name: "AcceptedTransferOffer_Withdraw",
  consuming: true,
  argument: t.record({ reason: t.text }),
  result: trackingResult("AcceptedTransferOffer_WithdrawResult"),
  controllers: (p: AcceptedTransferOfferPayload) => [p.receiver],
  body: (_ctx, self) => trackingOf(self.payload),
});

export const AcceptedTransferOffer_Abort = choice({
  name: "AcceptedTransferOffer_Abort",
  consuming: true,
  argument: t.record({ reason: t.text }),
  result: trackingResult("AcceptedTransferOffer_AbortResult"),
  controllers: (p: AcceptedTransferOfferPayload) => [p.sender],
  body: (_ctx, self) => trackingOf(self.payload),
});

export const AcceptedTransferOffer_Expire = choice({
  name: "AcceptedTransferOffer_Expire",
  consuming: true,
  argument: t.record({ actor: t.party }),
  result: trackingResult("AcceptedTransferOffer_ExpireResult"),
  controllers: (_p: AcceptedTransferOfferPayload, arg) => [arg.actor],
  body: (ctx, self, arg) => {
    requireExpired(ctx, self.payload.expiresAt, arg.actor, [self.payload.sender, self.payload.receiver]);
    return trackingOf(self.payload);
  },
});

export const AcceptedTransferOffer: Template<AcceptedTransferOfferPayload> = defineTemplate<AcceptedTransferOfferPayload>({
  id: spliceName("wallet", MODULE, "AcceptedTransferOffer"),
  payload: acceptedPayload,
  signatories: (p) => [p.sender, p.receiver],
  choices: [AcceptedTransferOffer_Complete, AcceptedTransferOffer_Withdraw, AcceptedTransferOffer_Abort, AcceptedTransferOffer_Expire],
});

export const TransferOffer_Accept = choice({
  name: "TransferOffer_Accept",
  consuming: true,
  argument: t.record({}),
  result: t.record({ acceptedTransferOffer: t.contractId }, ty("TransferOffer_AcceptResult")),
  controllers: (p: TransferOfferPayload) => [p.receiver],
  body: async (ctx, self) => {
    const { sender, receiver, dso, amount, expiresAt, trackingId } = self.payload;
    ctx.require(ctx.ledgerTime < expiresAt, "Offer has not expired");
    const acceptedTransferOffer = await ctx.create(AcceptedTransferOffer, { sender, receiver, dso, amount, expiresAt, trackingId });
    return { acceptedTransferOffer };
  },
});

export const TransferOffer_Reject = choice({
  name: "TransferOffer_Reject",
  consuming: true,
  argument: t.record({}),
  result: trackingResult("TransferOffer_RejectResult"),
  controllers: (p: TransferOfferPayload) => [p.receiver],
  body: (_ctx, self) => trackingOf(self.payload),
});

export const TransferOffer_Withdraw = choice({
  name: "TransferOffer_Withdraw",
  consuming: true,
  argument: t.record({ reason: t.text }),
  result: trackingResult("TransferOffer_WithdrawResult"),
  controllers: (p: TransferOfferPayload) => [p.sender],
  body: (_ctx, self) => trackingOf(self.payload),
});

export const TransferOffer_Expire = choice({
  name: "TransferOffer_Expire",
  consuming: true,
  argument: t.record({ actor: t.party }),
  result: trackingResult("TransferOffer_ExpireResult"),
  controllers: (_p: TransferOfferPayload, arg) => [arg.actor],
  body: (ctx, self, arg) => {
    requireExpired(ctx, self.payload.expiresAt, arg.actor, [self.payload.sender, self.payload.receiver]);
    return trackingOf(self.payload);
  },
});

export const TransferOffer: Template<TransferOfferPayload> = defineTemplate<TransferOfferPayload>({
  id: spliceName("wallet", MODULE, "TransferOffer"),
  payload: offerPayload,
  signatories: (p) => [p.sender],
  observers: (p) => [p.receiver],
  ensure: (p) => (textLength(p.description) < 280 && textLength(p.trackingId) < 280 ? undefined : "description and trackingId are shorter than 280 characters"),
  choices: [TransferOffer_Accept, TransferOffer_Reject, TransferOffer_Withdraw, TransferOffer_Expire],
});
