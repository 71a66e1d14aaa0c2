/** What the `/v0` services need: the Ledger API's collaborators, the wallet use cases' context and a logger. */
import type { Logger } from "pino";
import type { WalletContext } from "../../../wallet/index.js";
import type { LedgerApi } from "../ledger-api.js";

export interface WalletApi {
  readonly ledger: LedgerApi;
  readonly wallet: WalletContext;
  readonly log: Logger;
}
