/**
 * `POST /v0/wallet/minting-delegation-proposals/{contract_id}/accept`: the delegate accepts a
 * beneficiary's proposal; the delegation it already holds for that beneficiary is replaced
 * (archived by the same choice), so there is at most one per beneficiary and delegate.
 */
import { MintingDelegation, MintingDelegationProposal, MintingDelegationProposal_Accept } from "../../templates/splice/wallet/minting-delegation.js";
import { delegateContract } from "../support/delegate-contract.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function acceptMintingDelegationProposal(deps: WalletDeps, party: string, contractId: string): Promise<string> {
  const proposal = await delegateContract(deps, party, contractId, MintingDelegationProposal, (p) => p.delegation, "minting delegation proposal");
  const { beneficiary } = proposal.payload.delegation;
  const [existing] = (await deps.client.active(MintingDelegation, [party])).filter(
    (d) => d.payload.delegate === party && d.payload.beneficiary === beneficiary && d.payload.dso === deps.dso,
  );
  const { result } = await deps.client.exercise(
    [party],
    MintingDelegationProposal,
    contractId,
    MintingDelegationProposal_Accept,
    { existingDelegationCid: existing?.contractId ?? null },
  );
  return result.mintingDelegationCid;
}
