/**
 * An end user's request to the wallet automation to buy extra traffic for a synchronizer member
 * (splice-wallet `Splice.Wallet.BuyTrafficRequest`). Completing it pays through
 * `AmuletRules_BuyMemberTraffic` from the user's holdings.
 */
import { t, type ValueOf } from "../../../ledger/daml-type.js";
import { choice, defineTemplate, type Template } from "../../../ledger/template.js";
import { AmuletRules, AmuletRules_BuyMemberTraffic } from "../amulet-rules.js";
import { spliceName, spliceType } from "../packages.js";
import { PaymentTransferContext, TransferInput } from "../transfer-types.js";

const MODULE = "Splice.Wallet.BuyTrafficRequest";
const ty = (entity: string) => spliceType("wallet", MODULE, entity);

export const BuyTrafficRequestTrackingInfo = t.record({ trackingId: t.text, endUserParty: t.party }, ty("BuyTrafficRequestTrackingInfo"));

const payload = t.record({
  dso: t.party,
  endUserParty: t.party,
  expiresAt: t.time,
  trackingId: t.text,
  trafficAmount: t.int64,
  memberId: t.text,
  synchronizerId: t.text,
  migrationId: t.int64,
});
export type BuyTrafficRequestPayload = ValueOf<typeof payload>;

const trackingOf = (p: BuyTrafficRequestPayload) => ({ trackingInfo: { trackingId: p.trackingId, endUserParty: p.endUserParty } });

interface BuyResult {
  readonly purchasedTraffic: string;
  readonly senderChangeAmulet: string | null;
}

export const BuyTrafficRequest_Complete = choice({
  name: "BuyTrafficRequest_Complete",
  consuming: true,
  argument: t.record({ inputs: t.list(TransferInput), context: PaymentTransferContext, walletProvider: t.party }),
  result: t.record(
    { purchasedTraffic: t.contractId, trackingInfo: BuyTrafficRequestTrackingInfo, senderChangeAmulet: t.optional(t.contractId) },
    ty("BuyTrafficRequest_CompleteResult"),
  ),
  controllers: (p: BuyTrafficRequestPayload, arg) => [p.endUserParty, arg.walletProvider],
  body: async (ctx, self, arg) => {
    const p = self.payload;
    ctx.require(ctx.ledgerTime < p.expiresAt, "Contract has not expired");
    const result = (await ctx.exercise(AmuletRules, arg.context.amuletRules, AmuletRules_BuyMemberTraffic, {
      inputs: arg.inputs,
      context: arg.context.context,
      provider: p.endUserParty,
      memberId: p.memberId,
      synchronizerId: p.synchronizerId,
      migrationId: p.migrationId,
      trafficAmount: p.trafficAmount,
    })) as BuyResult;
    return { purchasedTraffic: result.purchasedTraffic, ...trackingOf(p), senderChangeAmulet: result.senderChangeAmulet };
  },
});

export const BuyTrafficRequest_Cancel = choice({
  name: "BuyTrafficRequest_Cancel",
  consuming: true,
  argument: t.record({ reason: t.text }),
  result: t.record({ trackingInfo: BuyTrafficRequestTrackingInfo }, ty("BuyTrafficRequest_CancelResult")),
  controllers: (p: BuyTrafficRequestPayload) => [p.endUserParty],
  body: (ctx, self) => {
    ctx.require(ctx.ledgerTime < self.payload.expiresAt, "Contract has not expired");
    return trackingOf(self.payload);
  },
});

export const BuyTrafficRequest_Expire = choice({
  name: "BuyTrafficRequest_Expire",
  consuming: true,
  argument: t.record({}),
  result: t.record({ trackingInfo: BuyTrafficRequestTrackingInfo }, ty("BuyTrafficRequest_ExpireResult")),
  controllers: (p: BuyTrafficRequestPayload) => [p.endUserParty],
  body: (ctx, self) => {
    ctx.require(ctx.ledgerTime >= self.payload.expiresAt, "Contract has expired");
    return trackingOf(self.payload);
  },
});

export const BuyTrafficRequest: Template<BuyTrafficRequestPayload> = defineTemplate<BuyTrafficRequestPayload>({
  id: spliceName("wallet", MODULE, "BuyTrafficRequest"),
  payload,
  signatories: (p) => [p.endUserParty],
  choices: [BuyTrafficRequest_Complete, BuyTrafficRequest_Cancel, BuyTrafficRequest_Expire],
});
