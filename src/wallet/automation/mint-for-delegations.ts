/**
 * Splice's `MintingDelegationCollectRewardsTrigger` (reference A.8): for each active, unexpired
 * MintingDelegation whose delegate is hosted here, the delegate mints the beneficiary's reward
 * coupons of issuing rounds and, once the beneficiary holds at least twice its `amuletMergeLimit`
 * amulets, merges the smallest so that `amuletMergeLimit` remain — one `MintingDelegation_Mint` of
 * at most 100 inputs, exercised as the delegate (the node pays the traffic).
 */
import type { NetworkState } from "../../network/network-state.js";
import { MintingDelegation, MintingDelegation_Mint, type MintingDelegationPayload } from "../../templates/splice/wallet/minting-delegation.js";
import type { Active } from "../../ledger/ledger-client.js";
import { MAX_INPUTS } from "../support/select-inputs.js";
import { spendingAs } from "../support/spend-queue.js";
import { contextFor, spendableOf, type SpendableCandidate } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { actOnEach } from "./act-on-each.js";
import type { WalletParties } from "./wallet-parties.js";

export async function mintForDelegations(deps: WalletDeps, parties: WalletParties, state: NetworkState, now: bigint): Promise<boolean> {
  const hosted = new Set(await parties());
  // One read of all delegations (few), not one per hosted party (thousands). Not narrowed to the
  // changed parties: a new issuing round (the DSO's contract) concerns every beneficiary.
  const delegations = (await deps.client.active(MintingDelegation)).filter(
    (d) => hosted.has(d.payload.delegate) && d.payload.dso === deps.dso && d.payload.expiresAt > now,
  );
  return actOnEach(delegations, (d) => spendingAs(deps, d.payload.beneficiary, () => mintFor(deps, state, d)));
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
