/**
 * `WalletAppInstall` (splice-wallet `Splice.Wallet.Install`): the marker that a user's wallet is
 * installed on a validator, signed by the end user and the validator operator. Onboarding creates
 * it; its non-consuming choices let the validator act in the user's wallet workflows (create and
 * answer transfer offers, request traffic, self-grant a featured-app right on DevNet).
 *
 * Not served: `WalletAppInstall_ExecuteBatch` (Splice runs each operation under try/catch and
 * reports failures as `COO_Error`; the engine has no rollback scopes yet) and the app-payment and
 * subscription choices (those templates are not on this ledger).
 */
import { t, type DamlType, type ValueOf } from "../../../ledger/daml-type.js";
import { choice, defineTemplate, type Template, type UpdateContext } from "../../../ledger/template.js";
import { AmuletRules, type AmuletRulesPayload } from "../amulet-rules.js";
import { FeaturedAppRight, type FeaturedAppRightPayload } from "../amulet.js";
import { spliceName, spliceType } from "../packages.js";
import { PaymentAmount } from "../payment.js";
import { BuyTrafficRequest, BuyTrafficRequestTrackingInfo, type BuyTrafficRequestPayload } from "./buy-traffic-request.js";
import {
  AcceptedTransferOffer,
  TransferOffer,
  TransferOfferTrackingInfo,
  type AcceptedTransferOfferPayload,
  type TransferOfferPayload,
} from "./transfer-offer.js";

const MODULE = "Splice.Wallet.Install";
const ty = (entity: string) => spliceType("wallet", MODULE, entity);

const payload = t.record({ dsoParty: t.party, validatorParty: t.party, endUserName: t.text, endUserParty: t.party });
export type WalletAppInstallPayload = ValueOf<typeof payload>;

/** Every choice here is non-consuming and exercised by the validator operator. */
function byValidator<AT extends DamlType, RT extends DamlType>(
  name: string,
  argument: AT,
  result: RT,
  body: (ctx: UpdateContext, install: WalletAppInstallPayload, arg: ValueOf<AT>) => Promise<ValueOf<RT>>,
) {
  return choice({
    name: `WalletAppInstall_${name}`,
    consuming: false,
    argument,
    result,
    controllers: (p: WalletAppInstallPayload) => [p.validatorParty],
    body: (ctx, self, arg) => body(ctx, self.payload, arg),
  });
}

/** Runs a choice of another workflow contract on the user's behalf; its result type is the caller's to name. */
async function run<R, P>(ctx: UpdateContext, template: Template<P>, cid: string, name: string, arg: unknown): Promise<R> {
  return (await ctx.exercise(template, cid, template.choices.get(name)!, arg)) as R;
}

const offerTracking = (entity: string) => t.record({ trackingInfo: TransferOfferTrackingInfo }, ty(entity));
const trafficTracking = (entity: string) => t.record({ trackingInfo: BuyTrafficRequestTrackingInfo }, ty(entity));
type OfferTracking = ValueOf<ReturnType<typeof offerTracking>>;
type TrafficTracking = ValueOf<ReturnType<typeof trafficTracking>>;
const cidArg = t.record({ cid: t.contractId });
const cidReasonArg = t.record({ cid: t.contractId, reason: t.text });

const transferOfferChoices = [
  byValidator(
    "CreateTransferOffer",
    t.record({ receiver: t.party, amount: PaymentAmount, description: t.text, expiresAt: t.time, trackingId: t.text }),
    t.record({ transferOffer: t.contractId }, ty("WalletAppInstall_CreateTransferOfferResult")),
    async (ctx, i, a) => ({ transferOffer: await ctx.create(TransferOffer, { ...a, sender: i.endUserParty, dso: i.dsoParty }) }),
  ),
  byValidator("TransferOffer_Accept", cidArg, t.record({ acceptedTransferOffer: t.contractId }, ty("WalletAppInstall_TransferOffer_AcceptResult")), (ctx, _i, a) =>
    run<{ acceptedTransferOffer: string }, TransferOfferPayload>(ctx, TransferOffer, a.cid, "TransferOffer_Accept", {}),
  ),
  byValidator("TransferOffer_Reject", cidArg, offerTracking("WalletAppInstall_TransferOffer_RejectResult"), (ctx, _i, a) =>
    run<OfferTracking, TransferOfferPayload>(ctx, TransferOffer, a.cid, "TransferOffer_Reject", {}),
  ),
  byValidator("TransferOffer_Withdraw", cidReasonArg, offerTracking("WalletAppInstall_TransferOffer_WithdrawResult"), (ctx, _i, a) =>
    run<OfferTracking, TransferOfferPayload>(ctx, TransferOffer, a.cid, "TransferOffer_Withdraw", { reason: a.reason }),
  ),
  byValidator("TransferOffer_Expire", cidArg, offerTracking("WalletAppInstall_TransferOffer_ExpireResult"), (ctx, i, a) =>
    run<OfferTracking, TransferOfferPayload>(ctx, TransferOffer, a.cid, "TransferOffer_Expire", { actor: i.endUserParty }),
  ),
  byValidator("AcceptedTransferOffer_Abort", cidReasonArg, offerTracking("WalletAppInstall_AcceptedTransferOffer_AbortResult"), (ctx, _i, a) =>
    run<OfferTracking, AcceptedTransferOfferPayload>(ctx, AcceptedTransferOffer, a.cid, "AcceptedTransferOffer_Abort", { reason: a.reason }),
  ),
  byValidator("AcceptedTransferOffer_Withdraw", cidReasonArg, offerTracking("WalletAppInstall_AcceptedTransferOffer_WithdrawResult"), (ctx, _i, a) =>
    run<OfferTracking, AcceptedTransferOfferPayload>(ctx, AcceptedTransferOffer, a.cid, "AcceptedTransferOffer_Withdraw", { reason: a.reason }),
  ),
  byValidator("AcceptedTransferOffer_Expire", cidArg, offerTracking("WalletAppInstall_AcceptedTransferOffer_ExpireResult"), (ctx, i, a) =>
    run<OfferTracking, AcceptedTransferOfferPayload>(ctx, AcceptedTransferOffer, a.cid, "AcceptedTransferOffer_Expire", { actor: i.endUserParty }),
  ),
];

const trafficAndAppRightChoices = [
  byValidator(
    "CreateBuyTrafficRequest",
    t.record({ memberId: t.text, synchronizerId: t.text, migrationId: t.int64, trafficAmount: t.int64, expiresAt: t.time, trackingId: t.text }),
    t.record({ buyTrafficRequest: t.contractId }, ty("WalletAppInstall_CreateBuyTrafficRequestResult")),
    async (ctx, i, a) => ({ buyTrafficRequest: await ctx.create(BuyTrafficRequest, { ...a, dso: i.dsoParty, endUserParty: i.endUserParty }) }),
  ),
  byValidator(
    "BuyTrafficRequest_Cancel",
    t.record({ requestCid: t.contractId, reason: t.text }),
    trafficTracking("WalletAppInstall_BuyTrafficRequest_CancelResult"),
    (ctx, _i, a) => run<TrafficTracking, BuyTrafficRequestPayload>(ctx, BuyTrafficRequest, a.requestCid, "BuyTrafficRequest_Cancel", { reason: a.reason }),
  ),
  byValidator(
    "BuyTrafficRequest_Expire",
    t.record({ requestCid: t.contractId }),
    trafficTracking("WalletAppInstall_BuyTrafficRequest_ExpireResult"),
    (ctx, _i, a) => run<TrafficTracking, BuyTrafficRequestPayload>(ctx, BuyTrafficRequest, a.requestCid, "BuyTrafficRequest_Expire", {}),
  ),
  byValidator("FeaturedAppRights_Cancel", cidArg, t.record({}, ty("WalletAppInstall_FeaturedAppRights_CancelResult")), async (ctx, _i, a) => {
    await run<unknown, FeaturedAppRightPayload>(ctx, FeaturedAppRight, a.cid, "FeaturedAppRight_Cancel", {});
    return {};
  }),
  byValidator(
    "FeaturedAppRights_SelfGrant",
    t.record({ amuletRulesCid: t.contractId }),
    t.record({ featuredAppRight: t.contractId }, ty("WalletAppInstall_FeaturedAppRights_SelfGrantResult")),
    async (ctx, i, a) => {
      const r = await run<{ featuredAppRightCid: string }, AmuletRulesPayload>(ctx, AmuletRules, a.amuletRulesCid, "AmuletRules_DevNet_FeatureApp", { provider: i.endUserParty });
      return { featuredAppRight: r.featuredAppRightCid };
    },
  ),
];

export const WalletAppInstall: Template<WalletAppInstallPayload> = defineTemplate<WalletAppInstallPayload>({
  id: spliceName("wallet", MODULE, "WalletAppInstall"),
  payload,
  signatories: (p) => [p.endUserParty, p.validatorParty],
  choices: [...transferOfferChoices, ...trafficAndAppRightChoices],
});
