/**
 * Party ids in the config file (`hint::namespace`, Canton's PartyIdString), and maps keyed by
 * them as Splice's Helm values are. A malformed id is refused at start: a typo would otherwise
 * silently configure nobody.
 */
import { z } from "zod";
import { isPartyId } from "../ledger/ids.js";

const MESSAGE = "not a party id (hint::namespace, at most 255 of [A-Za-z0-9:-_ ])";

export const partyId = z.string().refine((s): boolean => isPartyId(s), { error: (i) => `${JSON.stringify(i.input)} is ${MESSAGE}` });

/** A map keyed by party id; an invalid key's issue carries the key in its path and says why. */
export function partyMap<T extends z.ZodType>(value: T) {
  return z.record(partyId, value, { error: (i) => (i.code === "invalid_key" ? `the key is ${MESSAGE}` : undefined) });
}
