/** Featured app rights read from the ledger: an active `FeaturedAppRight` of the DSO for the party. */
import type { LedgerClient } from "../../ledger/ledger-client.js";
import { FeaturedAppRight } from "../../templates/splice/amulet.js";
import type { FeaturedAppRights } from "../featured-app-rights.js";

export function ccFeaturedAppRights(client: LedgerClient, dso: string): FeaturedAppRights {
  return {
    isFeatured: async (party) => (await client.active(FeaturedAppRight, [party])).some((r) => r.payload.provider === party && r.payload.dso === dso),
  };
}
