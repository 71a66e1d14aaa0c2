/**
 * The minting-delegation contract a delegate names by id: unknown ids and contracts the party
 * is not the delegate of are not found (the wallet lists only the delegate's own), a malformed
 * id is a bad request.
 */
import { isContractId } from "../../ledger/ids.js";
import type { Active } from "../../ledger/ledger-client.js";
import type { Template } from "../../ledger/template.js";
import type { MintingDelegationPayload } from "../../templates/splice/wallet/minting-delegation.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export async function delegateContract<P>(
  deps: WalletDeps,
  party: string,
  contractId: string,
  template: Template<P>,
  delegationOf: (p: P) => MintingDelegationPayload,
  what: string,
): Promise<Active<P>> {
  if (!isContractId(contractId)) throw walletErrors.badRequest(`contract_id: ${JSON.stringify(contractId)} is not a contract id`);
  const c = await deps.client.contract(template, contractId);
  if (!c || delegationOf(c.payload).delegate !== party || delegationOf(c.payload).dso !== deps.dso) {
    throw walletErrors.notFound(`no ${what} ${contractId} with delegate ${party}`);
  }
  return c;
}
