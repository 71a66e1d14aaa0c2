/** What every wallet use case needs: ledger access as the validator's apps, time and the network. */
import type { Clock } from "../ledger/clock.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import type { HoldingsIndex } from "./support/holdings-index.js";
import type { OfferIndex } from "./support/offer-index.js";

export interface WalletDeps {
  readonly client: LedgerClient;
  readonly clock: Clock;
  readonly dso: string;
  /** The validator operator party: wallet provider, preapproval provider, featured app. */
  readonly validator: string;
  /** Parties' Amulet/LockedAmulet holdings, in memory, current with the ledger (holdings-index.ts). */
  readonly holdings: HoldingsIndex;
  /** Transfer offers by tracking id for both sides, through to their end (offer-index.ts). */
  readonly offers: OfferIndex;
}
