/**
 * The validator buys extra traffic for its participant (Splice's `TopupMemberTrafficTrigger`,
 * A.3): `topupPlan`'s amount, at most once per its interval, only when what is left of the
 * purchased traffic is below that amount. The operator's wallet pays; on DevNet it first taps
 * exactly the cost and pays with that coin alone, elsewhere it warns and buys nothing when its
 * holdings fall short (a refused transaction would still cost traffic).
 *
 * Splice keeps the last purchase time in a ValidatorTopUpState contract; this package has no
 * such template, so the last purchase is the newest MemberTraffic bought for the member (any
 * buyer's: a user's purchase only makes the next top-up wait longer, never come sooner).
 */
import { randomUUID } from "node:crypto";
import type { TopupConfig } from "../../config/topup.js";
import type { NetworkState } from "../../network/network-state.js";
import { Numeric } from "../../ledger/numeric.js";
import { AmuletRules, AmuletRules_BuyMemberTraffic, AmuletRules_DevNet_Tap, currentConfig } from "../../templates/splice/amulet-rules.js";
import { MemberTraffic } from "../../templates/splice/decentralized-synchronizer.js";
import { pickInputs } from "../use-cases/send-via-preapproval.js";
import { spendingAs } from "../support/spend-queue.js";
import { contextFor, spendableOf, type Spendable, type SpendableCandidate } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrorOf } from "../wallet-error.js";
import { isPermanentRefusal } from "./act-on-each.js";
import type { AutomationLog } from "./automation-log.js";
import { trafficPrice } from "./complete-buy-traffic-requests.js";
import { topupPlan, type TopupPlan } from "./topup-amount.js";

export const TOPUP_TRIGGER = "top up traffic";

/** The participant's traffic account as the meter reports it (src/network/traffic). */
export interface TrafficBalance {
  readonly member: string;
  status(now: bigint): Promise<{ readonly extraConsumed: bigint; readonly purchased: bigint; readonly synchronizerId: string } | undefined>;
}

export interface TopupContext {
  readonly deps: WalletDeps;
  readonly config: TopupConfig;
  /** The automation's polling interval: the purchase interval is a multiple of it. */
  readonly pollMs: number;
  readonly traffic: TrafficBalance;
  readonly log: AutomationLog;
}

export async function topUpTraffic(ctx: TopupContext, state: NetworkState, now: bigint): Promise<boolean> {
  const fees = currentConfig(state.rules.payload).decentralizedSynchronizer.fees;
  const plan = topupPlan(ctx.config.targetThroughput, ctx.config.minTopupInterval, ctx.pollMs, fees.minTopupAmount);
  const status = await ctx.traffic.status(now);
  if (!status || status.purchased - status.extraConsumed >= plan.amount) return false;
  const last = await lastPurchasedAt(ctx, status.synchronizerId);
  if (last !== undefined && last + BigInt(plan.intervalMs) * 1000n > now) return false;
  return spendingAs(ctx.deps, ctx.deps.validator, () => buy(ctx, plan, status.synchronizerId, last === undefined ? "none" : String(last)));
}

async function lastPurchasedAt(ctx: TopupContext, synchronizerId: string): Promise<bigint | undefined> {
  const bought = await ctx.deps.client.active(MemberTraffic, [ctx.deps.dso]);
  const mine = bought.filter((t) => t.payload.memberId === ctx.traffic.member && t.payload.synchronizerId === synchronizerId);
  return mine.reduce<bigint | undefined>((latest, t) => (latest === undefined || t.record.createdAt > latest ? t.record.createdAt : latest), undefined);
}

async function buy(ctx: TopupContext, plan: TopupPlan, synchronizerId: string, last: string): Promise<boolean> {
  const { deps } = ctx;
  const spendable = await spendableOf(deps, deps.validator);
  const price = trafficPrice(spendable.state, spendable.openRound.payload, plan.amount);
  const inputs = spendable.state.rules.payload.isDevNet ? [await tapExactly(deps, spendable, price)] : payableFrom(ctx, spendable, price, plan);
  if (!inputs) return false;
  const { context, disclosed } = contextFor(spendable, inputs);
  const rules = spendable.state.rules;
  // One command id per last purchase: two runs that saw the same one buy once.
  const commandId = `topup-member-traffic-${synchronizerId}-after-${last}`;
  const { result } = await deps.client.exercise(
    [deps.validator],
    AmuletRules,
    rules.contractId,
    AmuletRules_BuyMemberTraffic,
    { inputs: inputs.map((i) => i.input), context, provider: deps.validator, memberId: ctx.traffic.member, synchronizerId, migrationId: 0n, trafficAmount: plan.amount },
    { disclosed, commandId },
  );
  ctx.log.info({ trigger: TOPUP_TRIGGER, bytes: String(plan.amount), amuletPaid: result.amuletPaid.toString() }, "bought extra traffic");
  return true;
}

/** The operator's inputs for `price`, or undefined (with Splice's warning) when it has too little. */
function payableFrom(ctx: TopupContext, spendable: Spendable, price: Numeric, plan: TopupPlan): SpendableCandidate[] | undefined {
  try {
    return pickInputs(spendable.candidates, price);
  } catch (e) {
    if (!isPermanentRefusal(e)) throw e;
    const mb = Number(plan.amount) / 1_000_000;
    ctx.log.warn(
      { trigger: TOPUP_TRIGGER, bytes: String(plan.amount), price: price.toString(), reason: walletErrorOf(e).message },
      `Insufficient funds to buy configured traffic amount. Please ensure that the validator's wallet has enough amulets to purchase ${mb} MB of traffic to continue operations.`,
    );
    return undefined;
  }
}

/** DevNet: mints exactly `price` to the operator, the one input of the purchase. */
async function tapExactly(deps: WalletDeps, spendable: Spendable, price: Numeric): Promise<SpendableCandidate> {
  const { rules } = spendable.state;
  const { result } = await deps.client.exercise(
    [deps.validator],
    AmuletRules,
    rules.contractId,
    AmuletRules_DevNet_Tap,
    { receiver: deps.validator, amount: price, openRound: spendable.openRound.contractId },
    // A top-up's command (prefix `topup-`), which the reserved traffic is kept for.
    { disclosed: [rules.record, spendable.openRound.record], commandId: `topup-devnet-tap-${randomUUID()}` },
  );
  const cid = result.amuletSum.amulet;
  return { contractId: cid, value: price, kind: "holding", input: { tag: "InputAmulet", value: cid } };
}
