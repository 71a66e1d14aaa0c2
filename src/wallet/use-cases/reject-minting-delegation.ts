/**
 * `POST /v0/wallet/minting-delegation-proposals/{contract_id}/reject` and
 * `POST /v0/wallet/minting-delegations/{contract_id}/reject`: the delegate declines a proposal or
 * ends a delegation it holds.
 */
import { MintingDelegation, MintingDelegation_Reject, MintingDelegationProposal, MintingDelegationProposal_Reject } from "../../templates/splice/wallet/minting-delegation.js";
import { delegateContract } from "../support/delegate-contract.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function rejectMintingDelegationProposal(deps: WalletDeps, party: string, contractId: string): Promise<void> {
  await delegateContract(deps, party, contractId, MintingDelegationProposal, (p) => p.delegation, "minting delegation proposal");
  await deps.client.exercise([party], MintingDelegationProposal, contractId, MintingDelegationProposal_Reject, {});
}

export async function rejectMintingDelegation(deps: WalletDeps, party: string, contractId: string): Promise<void> {
  await delegateContract(deps, party, contractId, MintingDelegation, (d) => d, "minting delegation");
  await deps.client.exercise([party], MintingDelegation, contractId, MintingDelegation_Reject, {});
}
