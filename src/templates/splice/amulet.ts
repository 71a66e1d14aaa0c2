/**
 * CC holdings and reward contracts (Splice.Amulet): `Amulet` (a UTXO whose amount decays by the
 * holding fee), `LockedAmulet`, the rights and the reward coupons that transfers mint.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { choice, defineTemplate, type ContractRef, type Template, type UpdateContext } from "../../ledger/template.js";
import { isExpired } from "./fees.js";
import { Holding, type HoldingView } from "./holding-v1.js";
import { amuletMeta, txMeta } from "./metadata.js";
import { spliceName } from "./packages.js";
import { ClosedMiningRound, OpenMiningRound } from "./round.js";
import { amuletInstrumentId, ExpiringAmount, Metadata, Round, TimeLock } from "./types.js";
import { assertDeadlineExceeded } from "../../ledger/deadlines.js";

const MODULE = "Splice.Amulet";

const amuletPayload = t.record({ dso: t.party, owner: t.party, amount: ExpiringAmount });
export type AmuletPayload = ValueOf<typeof amuletPayload>;

const roundArg = t.record({ roundCid: t.contractId });
const expireSummary = t.record({
  owner: t.party,
  round: Round,
  changeToInitialAmountAsOfRoundZero: t.numeric(),
  changeToHoldingFeesRate: t.numeric(),
});
const expireResult = t.record({ expireSum: expireSummary, meta: t.optional(Metadata) });

/** DSO's dust expiry: allowed once the holding is worth nothing at the given open round. */
async function expireDust(ctx: UpdateContext, amulet: AmuletPayload, roundCid: string): Promise<ValueOf<typeof expireResult>> {
  const round = await ctx.fetch(OpenMiningRound, roundCid);
  ctx.require(round.dso === amulet.dso, "round belongs to another DSO");
  ctx.require(isExpired(amulet.amount, round.round.number), "Amulet is expired");
  const { initialAmount, createdAt, ratePerRound } = amulet.amount;
  return {
    expireSum: {
      owner: amulet.owner,
      round: round.round,
      changeToInitialAmountAsOfRoundZero: initialAmount.add(ratePerRound.rate.mulInt(createdAt.number)).neg(),
      changeToHoldingFeesRate: ratePerRound.rate.neg(),
    },
    meta: txMeta("expire-dust", { burned: initialAmount }),
  };
}

const amuletView = (a: AmuletPayload, lock: HoldingView["lock"]): HoldingView => ({
  owner: a.owner,
  instrumentId: amuletInstrumentId(a.dso),
  amount: a.amount.initialAmount,
  lock,
  meta: amuletMeta(a.amount),
});

export const Amulet_Expire = choice({
  name: "Amulet_Expire",
  consuming: true,
  argument: roundArg,
  result: expireResult,
  controllers: (p: AmuletPayload) => [p.dso],
  body: (ctx, self, arg) => expireDust(ctx, self.payload, arg.roundCid),
});

export const Amulet: Template<AmuletPayload> = defineTemplate<AmuletPayload>({
  id: spliceName("amulet", MODULE, "Amulet"),
  payload: amuletPayload,
  signatories: (p) => [p.dso, p.owner],
  ensure: (p) =>
    p.amount.initialAmount.isPositive() && !p.amount.ratePerRound.rate.isNegative() && p.amount.createdAt.number >= 0n
      ? undefined
      : "invalid ExpiringAmount",
  choices: [Amulet_Expire],
  interfaces: [{ iface: Holding, view: (p: AmuletPayload) => amuletView(p, null), choices: {} }],
});

const lockedPayload = t.record({ amulet: amuletPayload, lock: TimeLock });
export type LockedAmuletPayload = ValueOf<typeof lockedPayload>;

const createSummary = t.record({ amulet: t.contractId, amuletPrice: t.numeric(), round: Round });
const unlockResult = t.record({ amuletSum: createSummary, meta: t.optional(Metadata) });
const unlockV2Result = t.record({ amuletCid: t.contractId, meta: Metadata });
const openRoundArg = t.record({ openRoundCid: t.contractId });

async function unlockWithRound(ctx: UpdateContext, self: ContractRef<LockedAmuletPayload>, openRoundCid: string, reason: string) {
  const round = await ctx.fetch(OpenMiningRound, openRoundCid);
  // Splice's fetchReferenceData (ForDso with dso = amulet.dso): a round anyone signed as "dso" would report its price and number.
  ctx.require(round.dso === self.payload.amulet.dso, "OpenMiningRound belongs to this DSO");
  const amulet = await ctx.create(Amulet, self.payload.amulet);
  return { amuletSum: { amulet, amuletPrice: round.amuletPrice, round: round.round }, meta: txMeta("unlock", { reason }) };
}

export const LockedAmulet_Unlock = choice({
  name: "LockedAmulet_Unlock",
  consuming: true,
  argument: openRoundArg,
  result: unlockResult,
  controllers: (p: LockedAmuletPayload) => [p.amulet.owner, ...p.lock.holders],
  body: (ctx, self, arg) => unlockWithRound(ctx, self, arg.openRoundCid, "holders released lock"),
});

export const LockedAmulet_UnlockV2 = choice({
  name: "LockedAmulet_UnlockV2",
  consuming: true,
  argument: t.record({}),
  result: unlockV2Result,
  controllers: (p: LockedAmuletPayload) => [p.amulet.owner, ...p.lock.holders],
  body: async (ctx, self) => ({
    amuletCid: await ctx.create(Amulet, self.payload.amulet),
    meta: txMeta("unlock", { reason: "holders released lock" }),
  }),
});

export const LockedAmulet_OwnerExpireLock = choice({
  name: "LockedAmulet_OwnerExpireLock",
  consuming: true,
  argument: openRoundArg,
  result: unlockResult,
  controllers: (p: LockedAmuletPayload) => [p.amulet.owner],
  body: (ctx, self, arg) => {
    ctx.require(ctx.isLedgerTimeGE(self.payload.lock.expiresAt), "Lock.expiresAt has passed");
    return unlockWithRound(ctx, self, arg.openRoundCid, "lock expired");
  },
});

export const LockedAmulet_OwnerExpireLockV2 = choice({
  name: "LockedAmulet_OwnerExpireLockV2",
  consuming: true,
  argument: t.record({}),
  result: unlockV2Result,
  controllers: (p: LockedAmuletPayload) => [p.amulet.owner],
  body: async (ctx, self) => {
    ctx.require(ctx.isLedgerTimeGE(self.payload.lock.expiresAt), "Lock.expiresAt has passed");
    return { amuletCid: await ctx.create(Amulet, self.payload.amulet), meta: txMeta("unlock", { reason: "lock expired" }) };
  },
});

export const LockedAmulet_ExpireAmulet = choice({
  name: "LockedAmulet_ExpireAmulet",
  consuming: true,
  argument: roundArg,
  result: expireResult,
  controllers: (p: LockedAmuletPayload) => [p.amulet.dso],
  body: (ctx, self, arg) => {
    // Locked funds are the lock holders' until the lock ends, dust or not.
    assertDeadlineExceeded(ctx, "Lock.expiresAt", self.payload.lock.expiresAt);
    return expireDust(ctx, self.payload.amulet, arg.roundCid);
  },
});

export const LockedAmulet: Template<LockedAmuletPayload> = defineTemplate<LockedAmuletPayload>({
  id: spliceName("amulet", MODULE, "LockedAmulet"),
  payload: lockedPayload,
  signatories: (p) => [...p.lock.holders, p.amulet.dso, p.amulet.owner],
  choices: [
    LockedAmulet_Unlock,
    LockedAmulet_UnlockV2,
    LockedAmulet_OwnerExpireLock,
    LockedAmulet_OwnerExpireLockV2,
    LockedAmulet_ExpireAmulet,
  ],
  interfaces: [
    {
      iface: Holding,
      view: (p: LockedAmuletPayload) =>
        amuletView(p.amulet, { holders: p.lock.holders, expiresAt: p.lock.expiresAt, expiresAfter: null, context: p.lock.optContext }),
      choices: {},
    },
  ],
});

const validatorRightPayload = t.record({ dso: t.party, user: t.party, validator: t.party });
export type ValidatorRightPayload = ValueOf<typeof validatorRightPayload>;

export const ValidatorRight_ArchiveAsValidator = choice({ name: "ValidatorRight_ArchiveAsValidator", consuming: true, argument: t.record({}), result: t.record({}), controllers: (p: ValidatorRightPayload) => [p.validator], body: () => ({}) });

export const ValidatorRight_ArchiveAsUser = choice({ name: "ValidatorRight_ArchiveAsUser", consuming: true, argument: t.record({}), result: t.record({}), controllers: (p: ValidatorRightPayload) => [p.user], body: () => ({}) });

export const ValidatorRight: Template<ValidatorRightPayload> = defineTemplate<ValidatorRightPayload>({
  id: spliceName("amulet", MODULE, "ValidatorRight"),
  payload: validatorRightPayload,
  signatories: (p) => [p.user, p.validator],
  choices: [ValidatorRight_ArchiveAsValidator, ValidatorRight_ArchiveAsUser],
});

const featuredAppRightPayload = t.record({ dso: t.party, provider: t.party });
export type FeaturedAppRightPayload = ValueOf<typeof featuredAppRightPayload>;

export const FeaturedAppRight_Withdraw = choice({ name: "FeaturedAppRight_Withdraw", consuming: true, argument: t.record({ reason: t.text }), result: t.record({}), controllers: (p: FeaturedAppRightPayload) => [p.dso], body: () => ({}) });

export const FeaturedAppRight_Cancel = choice({ name: "FeaturedAppRight_Cancel", consuming: true, argument: t.record({}), result: t.record({}), controllers: (p: FeaturedAppRightPayload) => [p.provider], body: () => ({}) });

export const FeaturedAppRight: Template<FeaturedAppRightPayload> = defineTemplate<FeaturedAppRightPayload>({
  id: spliceName("amulet", MODULE, "FeaturedAppRight"),
  payload: featuredAppRightPayload,
  signatories: (p) => [p.dso],
  observers: (p) => [p.provider],
  choices: [FeaturedAppRight_Withdraw, FeaturedAppRight_Cancel],
});

const closedRoundArg = t.record({ closedRoundCid: t.contractId });

/** Coupons of a round can only be expired once that round is closed. */
async function requireClosed(ctx: UpdateContext, dso: string, round: Round, closedRoundCid: string): Promise<void> {
  const closed = await ctx.fetch(ClosedMiningRound, closedRoundCid);
  ctx.require(closed.dso === dso && closed.round.number === round.number, `round ${round.number} is closed`);
}

const appRewardPayload = t.record({
  dso: t.party,
  provider: t.party,
  featured: t.bool,
  amount: t.numeric(),
  round: Round,
  beneficiary: t.optional(t.party),
});
export type AppRewardCouponPayload = ValueOf<typeof appRewardPayload>;

export const AppRewardCoupon_DsoExpire = choice({
  name: "AppRewardCoupon_DsoExpire",
  consuming: true,
  argument: closedRoundArg,
  result: t.record({ featured: t.bool, amount: t.numeric() }),
  controllers: (p: AppRewardCouponPayload) => [p.dso],
  body: async (ctx, self, arg) => {
    await requireClosed(ctx, self.payload.dso, self.payload.round, arg.closedRoundCid);
    return { featured: self.payload.featured, amount: self.payload.amount };
  },
});

export const AppRewardCoupon: Template<AppRewardCouponPayload> = defineTemplate<AppRewardCouponPayload>({
  id: spliceName("amulet", MODULE, "AppRewardCoupon"),
  payload: appRewardPayload,
  signatories: (p) => [p.dso],
  observers: (p) => [p.provider, ...(p.beneficiary ? [p.beneficiary] : [])],
  ensure: (p) => (p.amount.isPositive() ? undefined : "amount must be positive"),
  choices: [AppRewardCoupon_DsoExpire],
});

const validatorRewardPayload = t.record({ dso: t.party, user: t.party, amount: t.numeric(), round: Round });
export type ValidatorRewardCouponPayload = ValueOf<typeof validatorRewardPayload>;

export const ValidatorRewardCoupon_DsoExpire = choice({
  name: "ValidatorRewardCoupon_DsoExpire",
  consuming: true,
  argument: closedRoundArg,
  result: t.record({ amount: t.numeric() }),
  controllers: (p: ValidatorRewardCouponPayload) => [p.dso],
  body: async (ctx, self, arg) => {
    await requireClosed(ctx, self.payload.dso, self.payload.round, arg.closedRoundCid);
    return { amount: self.payload.amount };
  },
});

export const ValidatorRewardCoupon_ArchiveAsValidator = choice({
  name: "ValidatorRewardCoupon_ArchiveAsValidator",
  consuming: true,
  argument: t.record({ validator: t.party, rightCid: t.contractId }),
  result: t.record({}),
  controllers: (_p: ValidatorRewardCouponPayload, arg) => [arg.validator],
  body: async (ctx, self, arg) => {
    const right = await ctx.fetch(ValidatorRight, arg.rightCid);
    ctx.require(
      right.dso === self.payload.dso && right.user === self.payload.user && right.validator === arg.validator,
      "ValidatorRight matches the coupon's user and the validator",
    );
    return {};
  },
});

export const ValidatorRewardCoupon: Template<ValidatorRewardCouponPayload> = defineTemplate<ValidatorRewardCouponPayload>({
  id: spliceName("amulet", MODULE, "ValidatorRewardCoupon"),
  payload: validatorRewardPayload,
  signatories: (p) => [p.dso],
  observers: (p) => [p.user],
  ensure: (p) => (p.amount.isPositive() ? undefined : "amount must be positive"),
  choices: [ValidatorRewardCoupon_DsoExpire, ValidatorRewardCoupon_ArchiveAsValidator],
});

const unclaimedRewardPayload = t.record({ dso: t.party, amount: t.numeric() });
export const UnclaimedReward = defineTemplate<ValueOf<typeof unclaimedRewardPayload>>({
  id: spliceName("amulet", MODULE, "UnclaimedReward"),
  payload: unclaimedRewardPayload,
  signatories: (p) => [p.dso],
});

export const amuletTemplates = [Amulet, LockedAmulet, ValidatorRight, FeaturedAppRight, AppRewardCoupon, ValidatorRewardCoupon, UnclaimedReward] as const;
