/** The caller's own transfer preapproval and one-step sends through a receiver's. */
import type { WalletService } from "../../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import type { WalletUser } from "../../../../wallet/index.js";
import type { Handler } from "../endpoints.js";
import { notYet } from "./not-yet.js";

type Wallet = typeof WalletService;

export type PreapprovalMethod = "createTransferPreapproval" | "transferPreapprovalSend";

export const preapprovalHandlers: { [K in PreapprovalMethod]: Handler<Wallet, K, WalletUser> } = {
  createTransferPreapproval: notYet("POST /v0/wallet/transfer-preapproval"),
  transferPreapprovalSend: notYet("POST /v0/wallet/transfer-preapproval/send"),
};
