/** Balance, holdings, tap and reward-coupon lists of the caller's party. */
import type { WalletService } from "../../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import type { WalletUser } from "../../../../wallet/index.js";
import type { Handler } from "../endpoints.js";
import { notYet } from "./not-yet.js";

type Wallet = typeof WalletService;

export type HoldingsMethod = "getBalance" | "listAmulets" | "tap" | "listAppRewardCoupons" | "listValidatorRewardCoupons" | "listValidatorLivenessActivityRecords";

export const holdingsHandlers: { [K in HoldingsMethod]: Handler<Wallet, K, WalletUser> } = {
  getBalance: notYet("GET /v0/wallet/balance"),
  listAmulets: notYet("GET /v0/wallet/amulets"),
  tap: notYet("POST /v0/wallet/tap"),
  listAppRewardCoupons: notYet("GET /v0/wallet/app-reward-coupons"),
  listValidatorRewardCoupons: notYet("GET /v0/wallet/validator-reward-coupons"),
  listValidatorLivenessActivityRecords: notYet("GET /v0/wallet/validator-liveness-activity-records"),
};
