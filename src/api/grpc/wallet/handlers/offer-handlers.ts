/** Transfer offers (external API, tracking ids), accepted offers, traffic purchases, history. */
import type { WalletService } from "../../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import type { WalletUser } from "../../../../wallet/index.js";
import type { Handler } from "../endpoints.js";
import { notYet } from "./not-yet.js";

type Wallet = typeof WalletService;

export type OfferMethod = "createTransferOffer" | "listTransferOffers" | "getTransferOfferStatus" | "acceptTransferOffer" | "rejectTransferOffer" | "withdrawTransferOffer" | "listAcceptedTransferOffers" | "createBuyTrafficRequest" | "getBuyTrafficRequestStatus" | "listTransactions";

export const offerHandlers: { [K in OfferMethod]: Handler<Wallet, K, WalletUser> } = {
  createTransferOffer: notYet("POST /v0/wallet/transfer-offers"),
  listTransferOffers: notYet("GET /v0/wallet/transfer-offers"),
  getTransferOfferStatus: notYet("POST /v0/wallet/transfer-offers/{tracking_id}/status"),
  acceptTransferOffer: notYet("POST /v0/wallet/transfer-offers/{contract_id}/accept"),
  rejectTransferOffer: notYet("POST /v0/wallet/transfer-offers/{contract_id}/reject"),
  withdrawTransferOffer: notYet("POST /v0/wallet/transfer-offers/{contract_id}/withdraw"),
  listAcceptedTransferOffers: notYet("GET /v0/wallet/accepted-transfer-offers"),
  createBuyTrafficRequest: notYet("POST /v0/wallet/buy-traffic-requests"),
  getBuyTrafficRequestStatus: notYet("POST /v0/wallet/buy-traffic-requests/{tracking_id}/status"),
  listTransactions: notYet("POST /v0/wallet/transactions"),
};
