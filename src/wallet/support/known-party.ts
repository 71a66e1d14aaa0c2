/** A party named in a request: well-formed (400) and known to this participant (404). */
import type { PartyId } from "../../ledger/ids.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { parsePartyId } from "./wallet-input.js";

export async function knownParty(deps: WalletDeps, field: string, raw: string): Promise<PartyId> {
  const party = parsePartyId(field, raw);
  if (!(await deps.store.party(party))) throw walletErrors.notFound(`${field}: party ${party} does not exist`);
  return party;
}
