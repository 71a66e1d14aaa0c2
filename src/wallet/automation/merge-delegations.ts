/**
 * The spec's MergeDelegation workflow, step 3: the wallet provider (the validator operator) finds
 * the parties that delegated merging to it with more than `mergeThreshold` holdings and merges
 * them with `BatchMergeUtility_MergeHoldings`, at most 100 inputs a batch. Each merge is the
 * owner's token-standard self-transfer, its factory and choice context asked of the registry as
 * any wallet would; its amount is the inputs' value at the context's open round less the output's
 * create fee, so the sender's change is exactly zero: no CC made, none lost but the fees.
 *
 * These parties are not self-merged (collect-rewards.ts `mergeHoldings` skips them): one merger
 * per party, so a pass never merges a party twice.
 */
import { inScope, type Scope } from "../../automation/automation-step.js";
import type { ContractRecord } from "../../ledger/records.js";
import { latestOpenRound } from "../../network/network-state.js";
import type { AmuletPayload } from "../../templates/splice/amulet.js";
import { currentAmount } from "../../templates/splice/fees.js";
import { BatchMergeUtility, BatchMergeUtility_MergeHoldings, MergeDelegation, type MergeDelegationMergeArg } from "../../templates/splice/merge-delegation.js";
import type { Held } from "../support/holdings-index.js";
import { MAX_INPUTS } from "../support/select-inputs.js";
import { spendingAs } from "../support/spend-queue.js";
import type { WalletDeps } from "../wallet-deps.js";
import type { AutomationLog } from "./automation-log.js";
import { mergeCallFor, type PlannedMerge, type ValuedHolding } from "./merge-delegation-call.js";
import { chunkHoldings, groupOwners, packBatches } from "./merge-delegation-plan.js";
import { extend } from "../../util/extend.js";

export const MERGE_DELEGATION_TRIGGER = "merge delegated holdings";

export interface MergeDelegationContext {
  readonly deps: WalletDeps;
  /** Parties with more holdings than this are merged (`automation.mergeThreshold`). */
  readonly threshold: number;
  readonly log: AutomationLog;
}

interface DueOwner {
  readonly owner: string;
  readonly delegationCid: string;
  readonly count: number;
}

/**
 * Owners other than the operator with an active MergeDelegation to it, each with one delegation's
 * id; with a set of owners, only theirs. A pass for a few changed owners reads each owner's own
 * delegations (a small set the store keeps) rather than the operator's, one per user of the node.
 */
export async function delegationsToOperator(deps: WalletDeps, owners: Scope = "all"): Promise<Map<string, string>> {
  const read = owners === "all" ? [deps.validator] : [...owners];
  const found = owners === "all" ? await deps.client.active(MergeDelegation, read) : (await Promise.all(read.map((o) => deps.client.active(MergeDelegation, [o])))).flat();
  const byOwner = new Map<string, string>();
  for (const d of found) {
    const { owner, operator } = d.payload;
    if (operator !== deps.validator || owner === deps.validator || !inScope(owners, owner)) continue;
    if (!byOwner.has(owner)) byOwner.set(owner, d.contractId);
  }
  return byOwner;
}

const amuletsOf = async (deps: WalletDeps, owner: string): Promise<Held<AmuletPayload>[]> =>
  (await deps.holdings.of(owner)).amulets.filter((a) => a.payload.dso === deps.dso && a.payload.owner === owner);

export async function mergeDelegatedHoldings(ctx: MergeDelegationContext, scope: Scope): Promise<boolean> {
  const { deps } = ctx;
  const due: DueOwner[] = [];
  // Delegations first: counting holdings loads an owner into the holdings index, and a pass's
  // scope also names the DSO (a stakeholder of every holding: loading it reads them all).
  for (const [owner, delegationCid] of await delegationsToOperator(deps, scope)) {
    const count = (await amuletsOf(deps, owner)).length;
    if (count > ctx.threshold) due.push({ owner, delegationCid, count });
  }
  if (due.length === 0) return false;
  const utility = await batchUtility(deps);
  let acted = false;
  for (const group of groupOwners(due, MAX_INPUTS)) {
    // The owners' own spends wait meanwhile, so neither picks holdings the other consumes.
    if (await spendingAsAll(deps, group.map((o) => o.owner).sort(), () => mergeGroup(ctx, utility, group))) acted = true;
  }
  return acted;
}

/** Runs `work` holding the spend queues of all `parties` (taken in sorted order: no two runs wait on each other). */
function spendingAsAll<T>(deps: WalletDeps, parties: readonly string[], work: () => Promise<T>): Promise<T> {
  const [first, ...rest] = parties;
  if (first === undefined) return work();
  return spendingAs(deps, first, () => spendingAsAll(deps, rest, work));
}

/** Plans the group's merges from fresh holdings and submits them in batches; true if any was made. */
async function mergeGroup(ctx: MergeDelegationContext, utility: string, group: readonly DueOwner[]): Promise<boolean> {
  const calls: PlannedMerge[] = [];
  for (const { owner, delegationCid } of group) {
    const holdings = await amuletsOf(ctx.deps, owner);
    if (holdings.length <= ctx.threshold) continue;
    // Chunked by today's value; each chunk is valued again at the round its registry context names.
    for (const chunk of chunkHoldings(await valueAtOpenRound(ctx.deps, holdings), MAX_INPUTS)) {
      const call = await mergeCallFor(ctx.deps, owner, delegationCid, chunk);
      if (call) calls.push(call);
    }
  }
  for (const batch of packBatches(calls, MAX_INPUTS)) await submitBatch(ctx, utility, batch);
  return calls.length > 0;
}

async function valueAtOpenRound(deps: WalletDeps, holdings: readonly Held<AmuletPayload>[]): Promise<ValuedHolding[]> {
  const round = latestOpenRound(await deps.network.read(), deps.clock.now()).payload.round.number;
  return holdings.map((h) => extend(h, { contractId: h.record.contractId, value: currentAmount(h.payload.amount, round) }));
}

async function submitBatch(ctx: MergeDelegationContext, utility: string, batch: readonly PlannedMerge[]): Promise<void> {
  const disclosed = new Map<string, ContractRecord>();
  for (const m of batch) for (const r of m.disclosed) disclosed.set(r.contractId, r);
  const mergeCalls: { delegationCid: string; choiceArg: MergeDelegationMergeArg }[] = batch.map((m) => m.call);
  await ctx.deps.client.exercise([ctx.deps.validator], BatchMergeUtility, utility, BatchMergeUtility_MergeHoldings, { mergeCalls }, { disclosed: [...disclosed.values()] });
  const inputs = batch.reduce((n, m) => n + m.inputs, 0);
  ctx.log.info({ trigger: MERGE_DELEGATION_TRIGGER, owners: [...new Set(batch.map((m) => m.owner))], merges: batch.length, inputs }, "merged delegated holdings");
}

/** The operator's BatchMergeUtility, created the first time it is needed (only the operator signs it). */
async function batchUtility(deps: WalletDeps): Promise<string> {
  const [existing] = (await deps.client.active(BatchMergeUtility, [deps.validator])).filter((u) => u.payload.operator === deps.validator);
  return existing?.contractId ?? (await deps.client.create([deps.validator], BatchMergeUtility, { operator: deps.validator }));
}
