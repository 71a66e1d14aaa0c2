/**
 * Splice's `executeTransfer`: consume the inputs (holdings at their current value, reward coupons
 * at their issuing round's rate), create the outputs and the sender's change at the open round,
 * and issue rewards. Any refusal aborts the whole transaction, so nothing is half spent.
 */
import { Numeric } from "../../ledger/numeric.js";
import type { UpdateContext } from "../../ledger/template.js";
import { chargeSteppedRate, scaleFees, type TransferConfig } from "./amulet-config.js";
import { Amulet, AppRewardCoupon, FeaturedAppRight, LockedAmulet, ValidatorRewardCoupon, ValidatorRewardCoupon_ArchiveAsValidator, ValidatorRight } from "./amulet.js";
import { currentAmount, expiresAtRound, expiringAmount, valueAsOfRound0 } from "./fees.js";
import { mergeMeta, txMeta } from "./metadata.js";
import { IssuingMiningRound, OpenMiningRound, type IssuingMiningRoundPayload, type OpenMiningRoundPayload } from "./round.js";
import type { BalanceChange, CreatedAmulet, Transfer, TransferContext, TransferOutput, TransferResult, TransferSummary } from "./transfer-types.js";
import { ValidatorLivenessActivityRecord } from "./validator-license.js";
import { updated } from "../../util/extend.js";

export interface RewardsIssuance {
  readonly issueAppRewards: boolean;
  readonly issueValidatorRewards: boolean;
}

interface ContextSummary {
  readonly openRound: OpenMiningRoundPayload;
  readonly config: TransferConfig;
  readonly featuredProvider: string | null;
  readonly issuing: ReadonlyMap<bigint, IssuingMiningRoundPayload>;
  readonly validatorRights: ReadonlyMap<string, string>;
}

interface InputsSummary {
  amulet: Numeric;
  appReward: Numeric;
  validatorReward: Numeric;
  validatorFaucet: Numeric;
  holdingFees: Numeric;
  archivedAsOfRound0: Numeric;
  rateChange: Numeric;
}

interface PreparedOutput {
  readonly owner: string;
  readonly fee: Numeric;
  readonly amount: Numeric;
  readonly lock: TransferOutput["lock"];
}

export async function executeTransfer(
  ctx: UpdateContext,
  rewards: RewardsIssuance,
  context: TransferContext,
  dso: string,
  transfer: Transfer,
): Promise<TransferResult> {
  const csum = await summarizeContext(ctx, context, dso, transfer);
  ctx.require(
    BigInt(transfer.inputs.length) <= csum.config.maxNumInputs,
    `InvalidTransfer: ITR_Other {description = "More than the maximum number of inputs (${csum.config.maxNumInputs})"}`,
  );
  ctx.require(BigInt(transfer.outputs.length) <= csum.config.maxNumOutputs, `InvalidTransfer: ITR_Other {description = "More than the maximum number of outputs"}`);
  const inputs = await consumeInputs(ctx, csum, dso, transfer);
  const outputs = transfer.outputs.map((o) => prepareOutput(ctx, csum.config, transfer.sender, o));
  const summary = summarize(transfer.sender, csum, inputs, outputs);
  if (summary.senderChangeFee.isNegative()) {
    ctx.require(false, `InvalidTransfer: ITR_InsufficientFunds {missingAmount = ${summary.senderChangeFee.neg()}}`);
  }
  await issueRewards(ctx, rewards, csum, transfer, summary);
  const createdAmulets: CreatedAmulet[] = [];
  for (const out of outputs) createdAmulets.push(await createOutput(ctx, csum, dso, out));
  const senderChangeAmulet = summary.senderChangeAmount.isPositive()
    ? await ctx.create(Amulet, { dso, owner: transfer.sender, amount: expiringAmount(summary.senderChangeAmount, csum.openRound.round, csum.config.holdingFee) })
    : null;
  const merge = transfer.outputs.every((o) => retainsControl(transfer, o));
  const burned = summary.outputFees.reduce((a, b) => a.add(b), summary.holdingFees.add(summary.senderChangeFee));
  return {
    round: csum.openRound.round,
    summary,
    createdAmulets,
    senderChangeAmulet,
    meta: mergeMeta(txMeta(merge ? "merge-split" : "transfer", { sender: merge ? undefined : transfer.sender, burned })),
  };
}

async function summarizeContext(ctx: UpdateContext, context: TransferContext, dso: string, transfer: Transfer): Promise<ContextSummary> {
  const openRound = await ctx.fetch(OpenMiningRound, context.openMiningRound);
  ctx.require(openRound.dso === dso, "OpenMiningRound belongs to this DSO");
  ctx.require(ctx.isLedgerTimeGE(openRound.opensAt), `openRound.opensAt has passed: the round ${openRound.round.number} is not open yet`);
  let featuredProvider: string | null = null;
  if (context.featuredAppRight) {
    const right = await ctx.fetch(FeaturedAppRight, context.featuredAppRight);
    ctx.require(right.dso === dso && right.provider === transfer.provider, "FeaturedAppRight matches the transfer's provider");
    featuredProvider = transfer.provider;
  }
  const issuing = new Map<bigint, IssuingMiningRoundPayload>();
  for (const [round, cid] of context.issuingMiningRounds) {
    const r = await ctx.fetch(IssuingMiningRound, cid);
    ctx.require(r.dso === dso && r.round.number === round.number, `IssuingMiningRound ${cid} is for round ${round.number}`);
    ctx.require(ctx.isLedgerTimeGE(r.opensAt), `issuingRound[${round.number}].opensAt has passed`);
    issuing.set(round.number, r);
  }
  const validatorRights = new Map<string, string>();
  for (const [user, cid] of context.validatorRights) {
    const right = await ctx.fetch(ValidatorRight, cid);
    ctx.require(right.dso === dso && right.user === user && right.validator === transfer.sender, `ValidatorRight ${cid} is for user ${user} and validator ${transfer.sender}`);
    validatorRights.set(user, cid);
  }
  return { openRound, config: scaleFees(openRound.amuletPrice, openRound.transferConfigUsd), featuredProvider, issuing, validatorRights };
}

function issuingRound(ctx: UpdateContext, csum: ContextSummary, round: bigint): IssuingMiningRoundPayload {
  const r = csum.issuing.get(round);
  if (!r) ctx.require(false, `TransferContext did not contain issuing mining round found for Round {number = ${round}}`);
  return r!;
}

async function consumeInputs(ctx: UpdateContext, csum: ContextSummary, dso: string, transfer: Transfer): Promise<InputsSummary> {
  const s: InputsSummary = {
    amulet: Numeric.zero,
    appReward: Numeric.zero,
    validatorReward: Numeric.zero,
    validatorFaucet: Numeric.zero,
    holdingFees: Numeric.zero,
    archivedAsOfRound0: Numeric.zero,
    rateChange: Numeric.zero,
  };
  for (const input of transfer.inputs) {
    const cid = input.value;
    switch (input.tag) {
      case "InputAmulet": {
        const amulet = await ctx.fetch(Amulet, cid);
        requireOwned(ctx, transfer, amulet.dso === dso && amulet.owner === transfer.sender, cid);
        await ctx.archive(Amulet, cid);
        const value = currentAmount(amulet.amount, csum.openRound.round.number);
        s.amulet = s.amulet.add(amulet.amount.initialAmount);
        s.holdingFees = s.holdingFees.add(amulet.amount.initialAmount.sub(value));
        s.archivedAsOfRound0 = s.archivedAsOfRound0.add(valueAsOfRound0(amulet.amount));
        s.rateChange = s.rateChange.sub(amulet.amount.ratePerRound.rate);
        break;
      }
      case "InputAppRewardCoupon": {
        const coupon = await ctx.fetch(AppRewardCoupon, cid);
        requireOwned(ctx, transfer, coupon.dso === dso && (coupon.beneficiary ?? coupon.provider) === transfer.sender, cid);
        await ctx.archive(AppRewardCoupon, cid);
        const r = issuingRound(ctx, csum, coupon.round.number);
        const rate = coupon.featured ? r.issuancePerFeaturedAppRewardCoupon : r.issuancePerUnfeaturedAppRewardCoupon;
        s.appReward = s.appReward.add(coupon.amount.mul(rate));
        break;
      }
      case "InputValidatorRewardCoupon": {
        const coupon = await ctx.fetch(ValidatorRewardCoupon, cid);
        ctx.require(coupon.dso === dso, `input ${cid} belongs to this DSO`);
        const rightCid = csum.validatorRights.get(coupon.user);
        if (!rightCid) ctx.require(false, `TransferContext did contain validator right for user: ${coupon.user}`);
        await ctx.exercise(ValidatorRewardCoupon, cid, ValidatorRewardCoupon_ArchiveAsValidator, {
          validator: transfer.sender,
          rightCid: rightCid!,
        });
        s.validatorReward = s.validatorReward.add(coupon.amount.mul(issuingRound(ctx, csum, coupon.round.number).issuancePerValidatorRewardCoupon));
        break;
      }
      case "InputValidatorLivenessActivityRecord": {
        const record = await ctx.fetch(ValidatorLivenessActivityRecord, cid);
        requireOwned(ctx, transfer, record.dso === dso && record.validator === transfer.sender, cid);
        await ctx.archive(ValidatorLivenessActivityRecord, cid);
        const r = issuingRound(ctx, csum, record.round.number);
        s.validatorFaucet = s.validatorFaucet.add(r.optIssuancePerValidatorFaucetCoupon ?? Numeric.zero);
        break;
      }
    }
  }
  return s;
}

function outputFee(config: TransferConfig, sender: string, out: TransferOutput): Numeric {
  const locking = out.lock ? config.lockHolderFee.fee.mulInt(BigInt(out.lock.holders.length)) : Numeric.zero;
  const transferFee = sender === out.receiver ? Numeric.zero : chargeSteppedRate(config.transferFee, out.amount);
  return config.createFee.fee.add(locking).add(transferFee);
}

function prepareOutput(ctx: UpdateContext, config: TransferConfig, sender: string, raw: TransferOutput): PreparedOutput {
  const out: TransferOutput = raw.lock
    ? updated(raw, { lock: updated(raw.lock, { holders: [...new Set(raw.lock.holders.filter((h) => h !== raw.receiver))].sort() }) })
    : raw;
  ctx.require(!out.receiverFeeRatio.isNegative() && out.receiverFeeRatio.lte(Numeric.parse("1")), `Receiver fee ratio ${out.receiverFeeRatio} is not between 0.0 and 1.0`);
  ctx.require(out.amount.isPositive(), "Transfer output amount is positive");
  if (out.lock) {
    ctx.require(ctx.isLedgerTimeLT(out.lock.expiresAt), "lock.expiresAt is in the future");
    ctx.require(BigInt(out.lock.holders.length) <= config.maxNumLockHolders, "Fewer than the allowed number of lock holders");
  }
  const fee = outputFee(config, sender, out);
  const receiverFee = fee.mul(out.receiverFeeRatio);
  ctx.require(receiverFee.lt(out.amount), "Amount is larger than receiver output fee");
  return { owner: out.receiver, fee, amount: out.amount.sub(receiverFee), lock: out.lock };
}

// Module functions rather than closures in the functions below: tsx's keepNames would wrap each
// closure in a name definition on every transfer.
const sumOf = (xs: readonly Numeric[]): Numeric => xs.reduce((a, b) => a.add(b), Numeric.zero);

function addChange(changes: Map<string, BalanceChange>, party: string, c: BalanceChange): void {
  const prev = changes.get(party);
  changes.set(
    party,
    prev
      ? {
          changeToInitialAmountAsOfRoundZero: prev.changeToInitialAmountAsOfRoundZero.add(c.changeToInitialAmountAsOfRoundZero),
          changeToHoldingFeesRate: prev.changeToHoldingFeesRate.add(c.changeToHoldingFeesRate),
        }
      : c,
  );
}

function requireOwned(ctx: UpdateContext, transfer: Transfer, ok: boolean, cid: string): void {
  ctx.require(ok, `input ${cid} is owned by the sender ${transfer.sender} under this DSO`);
}

/** An output back to the sender that no one else holds a lock on: the transfer is a merge. */
function retainsControl(transfer: Transfer, o: TransferOutput): boolean {
  return o.receiver === transfer.sender && (!o.lock || o.lock.holders.every((h) => h === transfer.sender));
}

function summarize(sender: string, csum: ContextSummary, inp: InputsSummary, outputs: readonly PreparedOutput[]): TransferSummary {
  const rate = csum.config.holdingFee.rate;
  const round0Adjustment = rate.mulInt(csum.openRound.round.number);
  const outputFees = outputs.map((o) => o.fee);
  const leftOver = inp.amulet
    .add(inp.appReward)
    .add(inp.validatorReward)
    .add(inp.validatorFaucet)
    .sub(inp.holdingFees)
    .sub(sumOf(outputs.map((o) => o.amount)))
    .sub(sumOf(outputFees));
  const senderChangeFee = csum.config.createFee.fee.min(leftOver);
  const senderChangeAmount = leftOver.sub(senderChangeFee);
  const changes = new Map<string, BalanceChange>();
  addChange(
    changes,
    sender,
    senderChangeAmount.isPositive()
      ? { changeToInitialAmountAsOfRoundZero: senderChangeAmount.add(round0Adjustment).sub(inp.archivedAsOfRound0), changeToHoldingFeesRate: rate.add(inp.rateChange) }
      : { changeToInitialAmountAsOfRoundZero: inp.archivedAsOfRound0.neg(), changeToHoldingFeesRate: inp.rateChange },
  );
  for (const o of outputs) addChange(changes, o.owner, { changeToInitialAmountAsOfRoundZero: o.amount.add(round0Adjustment), changeToHoldingFeesRate: rate });
  return {
    inputAppRewardAmount: inp.appReward,
    inputValidatorRewardAmount: inp.validatorReward.add(inp.validatorFaucet),
    inputSvRewardAmount: Numeric.zero,
    inputAmuletAmount: inp.amulet,
    balanceChanges: [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    holdingFees: inp.holdingFees,
    outputFees,
    senderChangeFee,
    senderChangeAmount,
    amuletPrice: csum.openRound.amuletPrice,
    inputValidatorFaucetAmount: inp.validatorFaucet,
  };
}

/**
 * Splice issues rewards in proportion to the fees burnt. This network charges no transfer fees,
 * so a featured provider's extra reward is issued even when nothing was burnt (that is how a
 * preapproved transfer through a featured provider earns its `AppRewardCoupon`).
 */
async function issueRewards(ctx: UpdateContext, cfg: RewardsIssuance, csum: ContextSummary, transfer: Transfer, summary: TransferSummary): Promise<void> {
  const usageFees = sumOf(summary.outputFees);
  const dso = csum.openRound.dso;
  const round = csum.openRound.round;
  if (cfg.issueValidatorRewards && usageFees.isPositive()) {
    await ctx.create(ValidatorRewardCoupon, { dso, user: transfer.sender, amount: usageFees, round });
  }
  if (!cfg.issueAppRewards) {
    ctx.require(transfer.beneficiaries === null, "beneficiaries are unset if issueAppRewards is false");
    return;
  }
  const featured = csum.featuredProvider === transfer.provider;
  const amount = usageFees.add(featured ? csum.config.extraFeaturedAppRewardAmount : Numeric.zero);
  if (!amount.isPositive()) return;
  const beneficiaries = transfer.beneficiaries ?? [{ beneficiary: transfer.provider, weight: Numeric.parse("1") }];
  ctx.require(beneficiaries.length <= 20, "There are at most 20 beneficiaries");
  ctx.require(beneficiaries.every((b) => b.weight.isPositive() && b.weight.lte(Numeric.parse("1"))), "Beneficiary weights are between 0.0 and 1.0");
  ctx.require(beneficiaries.reduce((a, b) => a.add(b.weight), Numeric.zero).eq(Numeric.parse("1")), "Beneficiary weights add up to 1.0");
  const grouped = new Map<string, Numeric>();
  for (const b of beneficiaries) grouped.set(b.beneficiary, (grouped.get(b.beneficiary) ?? Numeric.zero).add(b.weight));
  for (const [beneficiary, weight] of [...grouped].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await ctx.create(AppRewardCoupon, { dso, provider: transfer.provider, featured, amount: amount.mul(weight), round, beneficiary });
  }
}

async function createOutput(ctx: UpdateContext, csum: ContextSummary, dso: string, out: PreparedOutput): Promise<CreatedAmulet> {
  const amulet = { dso, owner: out.owner, amount: expiringAmount(out.amount, csum.openRound.round, csum.config.holdingFee) };
  if (!out.lock) return { tag: "TransferResultAmulet", value: await ctx.create(Amulet, amulet) };
  // A lock must end before the holding could expire, so the DSO never archives locked CC.
  const expiry = expiresAtRound(amulet.amount);
  if (expiry !== undefined) {
    const roundsLeft = expiry - csum.openRound.round.number - 2n;
    const latestSafe = csum.openRound.opensAt + roundsLeft * csum.openRound.tickDuration.microseconds;
    ctx.require(out.lock.expiresAt < latestSafe, "lock expires before amulet");
  }
  return { tag: "TransferResultLockedAmulet", value: await ctx.create(LockedAmulet, { amulet, lock: out.lock }) };
}
