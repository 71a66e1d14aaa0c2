/**
 * Splice's WalletSweepTrigger (reference A.4): a hosted sender configured in
 * `automation.walletSweep` whose balance, valued at the open round's amulet price, is above
 * maxBalanceUSD sends what is above minBalanceUSD to its receiver. As a transfer offer (expires
 * in 10 minutes, random tracking id; the receiver or its auto-accept accepts, the
 * sender's wallet completes), or with `useTransferPreapproval` as a one-step send through the
 * receiver's preapproval — which, when missing, is logged as an error on every run and nothing
 * is sent. Open sweep offers to the receiver count as already swept, so none is made twice.
 */
import { randomUUID } from "node:crypto";
import type { WalletSweepConfig, WalletSweepEntry } from "../../config/wallet-sweep.js";
import { inScope, type Scope } from "../../automation/automation-step.js";
import { Numeric } from "../../ledger/numeric.js";
import { latestOpenRound, type NetworkState } from "../../network/network-state.js";
import { currentConfig } from "../../templates/splice/amulet-rules.js";
import { AcceptedTransferOffer, TransferOffer } from "../../templates/splice/wallet/transfer-offer.js";
import { balanceOf } from "../support/holdings.js";
import { createTransferOffer } from "../use-cases/create-transfer-offer.js";
import { findPreapproval, sendViaPreapproval } from "../use-cases/send-via-preapproval.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrorOf } from "../wallet-error.js";
import { actOnAll, isPermanentRefusal } from "./act-on-each.js";
import type { AutomationLog } from "./automation-log.js";
import { offerCostUsd, sweepAmountCc, usdOf } from "./sweep-amount.js";
import type { WalletParties } from "./wallet-parties.js";

export const SWEEP_TRIGGER = "wallet sweep";
/** Splice's sweep offers expire after 10 minutes. */
export const SWEEP_OFFER_LIFETIME = 600_000_000n;

export interface SweepContext {
  readonly deps: WalletDeps;
  readonly parties: WalletParties;
  readonly sweeps: WalletSweepConfig;
  readonly log: AutomationLog;
}

/** One sweep that is due: who pays whom how much, and why. */
interface Sweep {
  readonly sender: string;
  readonly receiver: string;
  readonly amount: Numeric;
  readonly balanceUsd: Numeric;
  readonly trackingId: string;
}

export async function sweepWallets(ctx: SweepContext, state: NetworkState, now: bigint, scope: Scope): Promise<boolean> {
  const entries = Object.entries(ctx.sweeps);
  if (entries.length === 0) return false;
  const ours = new Set(await ctx.parties());
  // A receiver's change (a new preapproval, an offer it answered) can make a sweep due too.
  const due = entries.filter(([sender, c]) => ours.has(sender) && (inScope(scope, sender) || inScope(scope, c.receiver)));
  return actOnAll(due, ([sender, c]) => sweepSender(ctx, state, now, sender, c));
}

async function sweepSender(ctx: SweepContext, state: NetworkState, now: bigint, sender: string, c: WalletSweepEntry): Promise<boolean> {
  const { deps, log } = ctx;
  const open = latestOpenRound(state, now).payload;
  const price = open.amuletPrice;
  const fees = currentConfig(state.rules.payload).transferConfig;
  const held = await deps.holdings.of(sender);
  const balanceCc = balanceOf(held.amulets.map((a) => a.payload), [], open.round.number).effectiveUnlocked;
  const balanceUsd = balanceCc.mul(price);
  if (!balanceUsd.gt(c.maxBalanceUSD)) return false;
  const outstanding = c.useTransferPreapproval ? [] : await outstandingOffers(deps, sender, c.receiver, now);
  const outstandingUsd = Numeric.total(outstanding.map((amount) => offerCostUsd(fees, usdOf(amount, price))));
  if (!balanceUsd.minus(outstandingUsd).gt(c.maxBalanceUSD)) {
    log.debug({ trigger: SWEEP_TRIGGER, sender, balanceUsd: balanceUsd.toString(), outstandingUsd: outstandingUsd.toString() }, "balance above maxBalanceUSD, but outstanding transfer offers already cover it");
    return false;
  }
  const amount = sweepAmountCc(fees, balanceUsd, outstandingUsd, c.minBalanceUSD, price);
  if (!amount.isPositive()) return false;
  const sweep: Sweep = { sender, receiver: c.receiver, amount, balanceUsd, trackingId: randomUUID() };
  try {
    return await (c.useTransferPreapproval ? sweepViaPreapproval(ctx, sweep) : sweepByOffer(ctx, sweep, now));
  } catch (e) {
    // A refusal (unknown receiver, funds gone meanwhile) would repeat as is: say so, try on the next change.
    if (!isPermanentRefusal(e)) throw e;
    log.error({ trigger: SWEEP_TRIGGER, ...fieldsOf(sweep), reason: walletErrorOf(e).message }, "sweep refused");
    return false;
  }
}

/** Amounts of the sender's offers to the receiver still to be paid: open offers and accepted ones. */
async function outstandingOffers(deps: WalletDeps, sender: string, receiver: string, now: bigint) {
  const [offers, accepted] = await Promise.all([deps.client.active(TransferOffer, [sender]), deps.client.active(AcceptedTransferOffer, [sender])]);
  return [...offers, ...accepted]
    .map((o) => o.payload)
    .filter((p) => p.dso === deps.dso && p.sender === sender && p.receiver === receiver && p.expiresAt > now)
    .map((p) => p.amount);
}

const description = (receiver: string) => `Sweeping wallet funds to receiver ${receiver}.`;

const fieldsOf = (s: Sweep) => ({ sender: s.sender, receiver: s.receiver, amountCc: s.amount.toString(), balanceUsd: s.balanceUsd.toString(), trackingId: s.trackingId });

async function sweepByOffer(ctx: SweepContext, s: Sweep, now: bigint): Promise<boolean> {
  const expiresAt = now + SWEEP_OFFER_LIFETIME;
  const offer = await createTransferOffer(ctx.deps, { sender: s.sender, receiver: s.receiver, amount: s.amount, description: description(s.receiver), expiresAt, trackingId: s.trackingId });
  ctx.log.info({ trigger: SWEEP_TRIGGER, ...fieldsOf(s), offer }, "swept: transfer offer created");
  return true;
}

async function sweepViaPreapproval(ctx: SweepContext, s: Sweep): Promise<boolean> {
  if (!(await findPreapproval(ctx.deps, s.receiver))) {
    // Splice refuses this with INVALID_ARGUMENT on every poll: the operator must act.
    ctx.log.error(
      { trigger: SWEEP_TRIGGER, ...fieldsOf(s) },
      `cannot sweep: receiver ${s.receiver} has no TransferPreapproval; have the receiver create one, or set useTransferPreapproval to false`,
    );
    return false;
  }
  await sendViaPreapproval(ctx.deps, { sender: s.sender, receiver: s.receiver, amount: s.amount, deduplicationId: `sweep-${s.trackingId}`, description: description(s.receiver) });
  ctx.log.info({ trigger: SWEEP_TRIGGER, ...fieldsOf(s) }, "swept: sent through the receiver's transfer preapproval");
  return true;
}
