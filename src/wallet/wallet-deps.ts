/** What every wallet use case needs: ledger access as the validator's apps, time and the network. */
import type { Clock } from "../ledger/clock.js";
import type { LedgerClient } from "../ledger/ledger-client.js";

export interface WalletDeps {
  readonly client: LedgerClient;
  readonly clock: Clock;
  readonly dso: string;
  /** The validator operator party: wallet provider, preapproval provider, featured app. */
  readonly validator: string;
}
