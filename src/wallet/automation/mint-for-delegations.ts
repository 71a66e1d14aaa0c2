/**
 * Splice's `MintingDelegationCollectRewardsTrigger` (reference A.8), part of an onboarded external
 * party's automation: for the one active, unexpired MintingDelegation of each external party hosted
 * here whose delegate is hosted here too, the delegate mints the beneficiary's reward coupons of
 * issuing rounds and, once the beneficiary holds at least twice its `amuletMergeLimit` amulets,
 * merges the smallest so that `amuletMergeLimit` remain — one `MintingDelegation_Mint` of at most
 * 100 inputs, exercised as the delegate (the node pays the traffic).
 *
 * Only external beneficiaries: any user may sign delegations naming itself as both beneficiary
 * and delegate, and 20,000 of them, all read and valued on every holding change on the node, cut
 * taps from 521/s to 22/s (a hostile review).
 */
import { inScope, type Scope } from "../../automation/automation-step.js";
import type { NetworkState } from "../../network/network-state.js";
import { MintingDelegation, MintingDelegation_Mint, type MintingDelegationPayload } from "../../templates/splice/wallet/minting-delegation.js";
import type { Active } from "../../ledger/ledger-client.js";
import { MAX_INPUTS } from "../support/select-inputs.js";
import { spendingAs } from "../support/spend-queue.js";
import { contextFor, spendableOf, type SpendableCandidate } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { actOnEach } from "./act-on-each.js";
import type { WalletParties } from "./wallet-parties.js";

export const MINT_TRIGGER = "mint for delegations";

/**
 * `scope`: "all" when a round issues (every beneficiary may have coupons to mint), else the parties
 * whose holdings or delegations changed; only those that are external beneficiaries are read.
 */
export async function mintForDelegations(deps: WalletDeps, parties: WalletParties, state: NetworkState, now: bigint, scope: Scope): Promise<boolean> {
  const known = new Map<string, boolean>();
  const external = async (party: string) => {
    let is = known.get(party);
    if (is === undefined) known.set(party, (is = (await deps.store.party(party))?.external !== undefined));
    return is;
  };
  const read = scope === "all" ? undefined : await externalOf([...scope].filter((p) => p !== deps.dso), external);
  if (read?.length === 0) return false;
  const hosted = new Set(await parties());
  const byBeneficiary = new Map<string, Active<MintingDelegationPayload>>();
  // In creation order: the latest delegation of a beneficiary is the one used.
  for (const d of await deps.client.active(MintingDelegation, read)) {
    const { beneficiary, delegate } = d.payload;
    if (!hosted.has(delegate) || d.payload.dso !== deps.dso || d.payload.expiresAt <= now || !inScope(scope, beneficiary)) continue;
    if (!byBeneficiary.has(beneficiary) && !(await external(beneficiary))) continue;
    byBeneficiary.set(beneficiary, d);
  }
  return actOnEach([...byBeneficiary.values()], (d) => spendingAs(deps, d.payload.beneficiary, () => mintFor(deps, state, d)));
}

async function externalOf(parties: readonly string[], external: (party: string) => Promise<boolean>): Promise<string[]> {
  const found: string[] = [];
  for (const p of parties) if (await external(p)) found.push(p);
  return found;
}

/** The inputs a mint takes: every positive coupon, then the smallest holdings past 2× the limit. */
export function mintInputs(candidates: readonly SpendableCandidate[], mergeLimit: bigint): SpendableCandidate[] {
  const coupons = candidates.filter((c) => c.kind === "coupon" && c.value.isPositive());
  const holdings = candidates.filter((c) => c.kind === "holding");
  const limit = Number(mergeLimit);
  const merge = holdings.length >= 2 * limit ? [...holdings].sort((a, b) => a.value.cmp(b.value)).slice(0, holdings.length - limit + 1) : [];
  // Merging n holdings into one change leaves (count - n + 1): n = count - limit + 1 leaves `limit`.
  return [...coupons, ...merge].slice(0, MAX_INPUTS);
}

async function mintFor(deps: WalletDeps, state: NetworkState, d: Active<MintingDelegationPayload>): Promise<boolean> {
  const spendable = await spendableOf(deps, d.payload.beneficiary);
  const inputs = mintInputs(spendable.candidates, d.payload.amuletMergeLimit);
  if (inputs.length === 0 || (inputs.length === 1 && inputs[0].kind === "holding")) return false;
  const { context, disclosed } = contextFor(spendable, inputs);
  await deps.client.exercise(
    [d.payload.delegate],
    MintingDelegation,
    d.contractId,
    MintingDelegation_Mint,
    { inputs: inputs.map((i) => i.input), context: { amuletRules: state.rules.contractId, context } },
    { disclosed },
  );
  return true;
}
