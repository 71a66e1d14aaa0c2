/**
 * Reward collection: a wallet party's coupons of issuing rounds are minted into a holding by a
 * self-transfer that uses them as inputs (Splice's wallet does the same), before they expire.
 */
import { Numeric } from "../../ledger/numeric.js";
import { inScope, type Scope } from "../../automation/automation-step.js";
import type { NetworkState } from "../../network/network-state.js";
import { AmuletRules, AmuletRules_Transfer } from "../../templates/splice/amulet-rules.js";
import { MAX_INPUTS } from "../support/select-inputs.js";
import { spendingAs } from "../support/spend-queue.js";
import { contextFor, spendableOf, type Spendable, type SpendableCandidate } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { actOnEach } from "./act-on-each.js";
import type { WalletParties } from "./wallet-parties.js";

export async function collectRewards(deps: WalletDeps, parties: WalletParties, state: NetworkState): Promise<boolean> {
  return actOnEach(await parties(), (party) => spendingAs(deps, party, () => collectFor(deps, party, state)));
}

async function collectFor(deps: WalletDeps, party: string, state: NetworkState): Promise<boolean> {
  // One read of the party's coupons, then a transfer per MAX_INPUTS of them: reading them
  // again per batch would cost a busy provider (coupons by the hundred thousand) n²/100 reads.
  const spendable = await spendableOf(deps, party);
  const coupons = spendable.candidates.filter((c) => c.kind === "coupon" && c.value.isPositive());
  for (let i = 0; i < coupons.length; i += MAX_INPUTS) {
    await selfTransfer(deps, party, state, spendable, coupons.slice(i, i + MAX_INPUTS));
  }
  return coupons.length > 0;
}

/**
 * Merges: a party in scope with more than 10 holdings gets its smallest (up to 100) merged into
 * one. Parties in `delegated` are the operator's to merge through their MergeDelegation
 * (merge-delegations.ts) and are skipped here, so no party is merged twice in a pass.
 */
export async function mergeHoldings(
  deps: WalletDeps,
  parties: WalletParties,
  state: NetworkState,
  scope: Scope,
  threshold = 10,
  delegated: (scope: Scope) => Promise<ReadonlySet<string>> = async () => new Set(),
): Promise<boolean> {
  let acted = false;
  // Read only for a party over the threshold: most runs (a transfer changed holdings) find none. A
  // pass over everyone reads every delegation once; one over a few changed owners, that party's.
  let everyone: Promise<ReadonlySet<string>> | undefined;
  const isDelegated = async (party: string) => {
    const delegating = scope === "all" ? (everyone ??= delegated("all")) : delegated(new Set([party]));
    return (await delegating).has(party);
  };
  for (const party of (await parties()).filter((p) => inScope(scope, p))) {
    // Counted from the index before queueing behind the party's own spends: most changes leave a
    // party under the threshold, and its sends should not wait for a merge that has nothing to do.
    if ((await deps.holdings.of(party)).amulets.length <= threshold) continue;
    if (await isDelegated(party)) continue;
    if (await spendingAs(deps, party, () => mergeFor(deps, party, state, threshold))) acted = true;
  }
  return acted;
}

async function mergeFor(deps: WalletDeps, party: string, state: NetworkState, threshold: number): Promise<boolean> {
  const spendable = await spendableOf(deps, party, { coupons: false });
  const holdings = spendable.candidates;
  if (holdings.length <= threshold) return false;
  const inputs = [...holdings].sort((a, b) => a.value.cmp(b.value)).slice(0, MAX_INPUTS);
  if (!Numeric.total(inputs.map((c) => c.value)).isPositive()) return false; // total: never overflows
  await selfTransfer(deps, party, state, spendable, inputs);
  return true;
}

/** A transfer to nobody: the inputs' value becomes one new holding of the party (the change). */
async function selfTransfer(deps: WalletDeps, party: string, state: NetworkState, spendable: Spendable, inputs: readonly SpendableCandidate[]): Promise<void> {
  const { context, disclosed } = contextFor(spendable, inputs);
  await deps.client.exercise(
    [party],
    AmuletRules,
    state.rules.contractId,
    AmuletRules_Transfer,
    { transfer: { sender: party, provider: party, inputs: inputs.map((c) => c.input), outputs: [], beneficiaries: null }, context },
    { disclosed },
  );
}
