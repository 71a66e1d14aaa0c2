/**
 * The `/v0` endpoints that act on Canton Coin: wired into the services with their auth policy
 * (wallet user, validator admin, token user, public), answering 501 until the Canton Coin use
 * cases (src/wallet/) are plugged in here, one handler per endpoint.
 *
 * A handler gets the decoded request, the authenticated caller and the WalletApi, and returns the
 * response's init shape; it throws WalletErrors (`walletErrors.*`) for refusals. For a 409 that
 * answers with a result (`createTransferPreapproval`), throw `conflictWithResult(...)`.
 * Contracts in responses: `contractToProto` / `contractWithStateToProto`.
 */
import type { ValidatorAdminService } from "../../../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import type { WalletService } from "../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import type { WalletUser } from "../../../wallet/index.js";
import type { Handler } from "./endpoints.js";
import { adminCoinHandlers } from "./handlers/admin-handlers.js";
import { holdingsHandlers } from "./handlers/holdings-handlers.js";
import { offerHandlers } from "./handlers/offer-handlers.js";
import { preapprovalHandlers } from "./handlers/preapproval-handlers.js";
import { tokenStandardHandlers } from "./handlers/token-standard-handlers.js";
import { extend } from "../../../util/extend.js";

export { registryHandlers } from "./handlers/registry-handlers.js";
export { scanProxyHandlers } from "./handlers/scan-proxy-handlers.js";

type Wallet = typeof WalletService;
type Admin = typeof ValidatorAdminService;

/** WalletService methods served by the use cases outside this file. */
export type NonCoinWalletMethod = "userStatus";
/** ValidatorAdminService methods served by the use cases outside this file. */
export type NonCoinAdminMethod = "onboardUser" | "listUsers" | "offboardUser";

/** Caller: an onboarded wallet user (its party acts). One file per area under handlers/. */
export const coinWalletHandlers: { [K in Exclude<keyof Wallet["method"], NonCoinWalletMethod>]: Handler<Wallet, K, WalletUser> } = extend(
  holdingsHandlers,
  offerHandlers,
  preapprovalHandlers,
  tokenStandardHandlers,
);

/** Caller: the validator operator's user or a participant admin (its user id). */
export const coinAdminHandlers: { [K in Exclude<keyof Admin["method"], NonCoinAdminMethod>]: Handler<Admin, K, string> } = adminCoinHandlers;
