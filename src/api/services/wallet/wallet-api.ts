/** What the `/v0` services need: the Ledger API's collaborators, the wallet use cases' context and a logger. */
import type { Logger } from "pino";
import type { WalletContext } from "../../../wallet/index.js";
import type { LedgerApi } from "../ledger/ledger-api.js";
import type { WalletDeps } from "../../../wallet/wallet-deps.js";

export interface WalletApi {
  readonly ledger: LedgerApi;
  readonly wallet: WalletContext;
  readonly log: Logger;
  /** Canton Coin: ledger access as the validator's apps, time, the DSO and operator parties. */
  readonly cc: WalletDeps;
}
