/** What the `/v0` services need: the Ledger API's collaborators, the wallet layer's dependencies and a logger. */
import type { Logger } from "pino";
import type { WalletDeps } from "../../../wallet/index.js";
import type { LedgerApi } from "../ledger/ledger-api.js";

export interface WalletApi {
  readonly ledger: LedgerApi;
  readonly wallet: WalletDeps;
  readonly log: Logger;
}
