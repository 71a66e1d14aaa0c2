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
import { AmuletRules, AmuletRules_DevNet_FeatureApp } from "../amulet-rules.js";
import { FeaturedAppRight, FeaturedAppRight_Cancel } from "../amulet.js";
import { spliceName, spliceType } from "../packages.js";
import { PaymentAmount } from "../payment.js";
import { BuyTrafficRequest, BuyTrafficRequest_Cancel, BuyTrafficRequest_Expire, BuyTrafficRequestTrackingInfo } from "./buy-traffic-request.js";
import {
  AcceptedTransferOffer,
  AcceptedTransferOffer_Abort,
  AcceptedTransferOffer_Expire,
  AcceptedTransferOffer_Withdraw,
  TransferOffer,
  TransferOffer_Accept,
  TransferOffer_Expire,
  TransferOffer_Reject,
  TransferOffer_Withdraw,
  TransferOfferTrackingInfo,
} from "./transfer-offer.js";
import { extend } from "../../../util/extend.js";

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

const offerTracking = (entity: string) => t.record({ trackingInfo: TransferOfferTrackingInfo }, ty(entity));
const trafficTracking = (entity: string) => t.record({ trackingInfo: BuyTrafficRequestTrackingInfo }, ty(entity));
const cidArg = t.record({ cid: t.contractId });
const cidReasonArg = t.record({ cid: t.contractId, reason: t.text });

export const WalletAppInstall_CreateTransferOffer = byValidator(
  "CreateTransferOffer",
  t.record({ receiver: t.party, amount: PaymentAmount, description: t.text, expiresAt: t.time, trackingId: t.text }),
  t.record({ transferOffer: t.contractId }, ty("WalletAppInstall_CreateTransferOfferResult")),
  async (ctx, i, a) => ({ transferOffer: await ctx.create(TransferOffer, extend(a, { sender: i.endUserParty, dso: i.dsoParty })) }),
);

export const WalletAppInstall_TransferOffer_Accept = byValidator("TransferOffer_Accept", cidArg, t.record({ acceptedTransferOffer: t.contractId }, ty("WalletAppInstall_TransferOffer_AcceptResult")), (ctx, _i, a) =>
  ctx.exercise(TransferOffer, a.cid, TransferOffer_Accept, {}),
);

export const WalletAppInstall_TransferOffer_Reject = byValidator("TransferOffer_Reject", cidArg, offerTracking("WalletAppInstall_TransferOffer_RejectResult"), (ctx, _i, a) =>
  ctx.exercise(TransferOffer, a.cid, TransferOffer_Reject, {}),
);

export const WalletAppInstall_TransferOffer_Withdraw = byValidator("TransferOffer_Withdraw", cidReasonArg, offerTracking("WalletAppInstall_TransferOffer_WithdrawResult"), (ctx, _i, a) =>
  ctx.exercise(TransferOffer, a.cid, TransferOffer_Withdraw, { reason: a.reason }),
);

export const WalletAppInstall_TransferOffer_Expire = byValidator("TransferOffer_Expire", cidArg, offerTracking("WalletAppInstall_TransferOffer_ExpireResult"), (ctx, i, a) =>
  ctx.exercise(TransferOffer, a.cid, TransferOffer_Expire, { actor: i.endUserParty }),
);

export const WalletAppInstall_AcceptedTransferOffer_Abort = byValidator("AcceptedTransferOffer_Abort", cidReasonArg, offerTracking("WalletAppInstall_AcceptedTransferOffer_AbortResult"), (ctx, _i, a) =>
  ctx.exercise(AcceptedTransferOffer, a.cid, AcceptedTransferOffer_Abort, { reason: a.reason }),
);

export const WalletAppInstall_AcceptedTransferOffer_Withdraw = byValidator("AcceptedTransferOffer_Withdraw", cidReasonArg, offerTracking("WalletAppInstall_AcceptedTransferOffer_WithdrawResult"), (ctx, _i, a) =>
  ctx.exercise(AcceptedTransferOffer, a.cid, AcceptedTransferOffer_Withdraw, { reason: a.reason }),
);

export const WalletAppInstall_AcceptedTransferOffer_Expire = byValidator("AcceptedTransferOffer_Expire", cidArg, offerTracking("WalletAppInstall_AcceptedTransferOffer_ExpireResult"), (ctx, i, a) =>
  ctx.exercise(AcceptedTransferOffer, a.cid, AcceptedTransferOffer_Expire, { actor: i.endUserParty }),
);

const transferOfferChoices = [
  WalletAppInstall_CreateTransferOffer,
  WalletAppInstall_TransferOffer_Accept,
  WalletAppInstall_TransferOffer_Reject,
  WalletAppInstall_TransferOffer_Withdraw,
  WalletAppInstall_TransferOffer_Expire,
  WalletAppInstall_AcceptedTransferOffer_Abort,
  WalletAppInstall_AcceptedTransferOffer_Withdraw,
  WalletAppInstall_AcceptedTransferOffer_Expire,
];

export const WalletAppInstall_CreateBuyTrafficRequest = byValidator(
  "CreateBuyTrafficRequest",
  t.record({ memberId: t.text, synchronizerId: t.text, migrationId: t.int64, trafficAmount: t.int64, expiresAt: t.time, trackingId: t.text }),
  t.record({ buyTrafficRequest: t.contractId }, ty("WalletAppInstall_CreateBuyTrafficRequestResult")),
  async (ctx, i, a) => ({ buyTrafficRequest: await ctx.create(BuyTrafficRequest, extend(a, { dso: i.dsoParty, endUserParty: i.endUserParty })) }),
);

export const WalletAppInstall_BuyTrafficRequest_Cancel = byValidator(
  "BuyTrafficRequest_Cancel",
  t.record({ requestCid: t.contractId, reason: t.text }),
  trafficTracking("WalletAppInstall_BuyTrafficRequest_CancelResult"),
  (ctx, _i, a) => ctx.exercise(BuyTrafficRequest, a.requestCid, BuyTrafficRequest_Cancel, { reason: a.reason }),
);

export const WalletAppInstall_BuyTrafficRequest_Expire = byValidator(
  "BuyTrafficRequest_Expire",
  t.record({ requestCid: t.contractId }),
  trafficTracking("WalletAppInstall_BuyTrafficRequest_ExpireResult"),
  (ctx, _i, a) => ctx.exercise(BuyTrafficRequest, a.requestCid, BuyTrafficRequest_Expire, {}),
);

export const WalletAppInstall_FeaturedAppRights_Cancel = byValidator("FeaturedAppRights_Cancel", cidArg, t.record({}, ty("WalletAppInstall_FeaturedAppRights_CancelResult")), async (ctx, _i, a) => {
  await ctx.exercise(FeaturedAppRight, a.cid, FeaturedAppRight_Cancel, {});
  return {};
});

export const WalletAppInstall_FeaturedAppRights_SelfGrant = byValidator(
  "FeaturedAppRights_SelfGrant",
  t.record({ amuletRulesCid: t.contractId }),
  t.record({ featuredAppRight: t.contractId }, ty("WalletAppInstall_FeaturedAppRights_SelfGrantResult")),
  async (ctx, i, a) => {
    const r = await ctx.exercise(AmuletRules, a.amuletRulesCid, AmuletRules_DevNet_FeatureApp, { provider: i.endUserParty });
    return { featuredAppRight: r.featuredAppRightCid };
  },
);

const trafficAndAppRightChoices = [
  WalletAppInstall_CreateBuyTrafficRequest,
  WalletAppInstall_BuyTrafficRequest_Cancel,
  WalletAppInstall_BuyTrafficRequest_Expire,
  WalletAppInstall_FeaturedAppRights_Cancel,
  WalletAppInstall_FeaturedAppRights_SelfGrant,
];

export const WalletAppInstall: Template<WalletAppInstallPayload> = defineTemplate<WalletAppInstallPayload>({
  id: spliceName("wallet", MODULE, "WalletAppInstall"),
  payload,
  signatories: (p) => [p.endUserParty, p.validatorParty],
  choices: [...transferOfferChoices, ...trafficAndAppRightChoices],
});
