/**
 * Transfer offers (external API, tracking ids), accepted offers, traffic purchases and the
 * transaction history of the caller's party: request fields parsed at this edge, use cases in
 * src/wallet/, results as `/v0` messages. Contract-addressed actions read the id from the path
 * or, for the body-addressed aliases, from the body (the same request field).
 */
import type { WalletService } from "../../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import {
  acceptTransferOffer,
  createBuyTrafficRequest,
  createTransferOffer,
  getBuyTrafficRequestStatus,
  getTransferOfferStatus,
  listAcceptedTransferOffers,
  listTransactions,
  listTransferOffers,
  parseAmount,
  rejectTransferOffer,
  withdrawTransferOffer,
  type WalletUser,
} from "../../../../wallet/index.js";
import { contractToProto } from "../contract-proto.js";
import type { Handler } from "../endpoints.js";
import { buyTrafficRequestStatusToProto, historyItemToProto, transferOfferStatusToProto } from "./offer-proto.js";

type Wallet = typeof WalletService;

export type OfferMethod = "createTransferOffer" | "listTransferOffers" | "getTransferOfferStatus" | "acceptTransferOffer" | "rejectTransferOffer" | "withdrawTransferOffer" | "listAcceptedTransferOffers" | "createBuyTrafficRequest" | "getBuyTrafficRequestStatus" | "listTransactions";

export const offerHandlers: { [K in OfferMethod]: Handler<Wallet, K, WalletUser> } = {
  createTransferOffer: async (req, caller, api) => ({
    offerContractId: await createTransferOffer(api.wallet, {
      sender: caller.party,
      receiver: req.receiverPartyId,
      amount: parseAmount("amount", req.amount),
      description: req.description,
      expiresAt: req.expiresAt,
      trackingId: req.trackingId,
    }),
  }),
  listTransferOffers: async (_req, caller, api) => ({
    offers: (await listTransferOffers(api.wallet, caller.party)).map((o) => contractToProto(o.record, api.ledger.registry)),
  }),
  getTransferOfferStatus: async (req, caller, api) => transferOfferStatusToProto(await getTransferOfferStatus(api.wallet, caller.party, req.trackingId)),
  acceptTransferOffer: async (req, caller, api) => ({ acceptedOfferContractId: await acceptTransferOffer(api.wallet, caller.party, req.contractId) }),
  rejectTransferOffer: async (req, caller, api) => {
    await rejectTransferOffer(api.wallet, caller.party, req.contractId);
    return {};
  },
  withdrawTransferOffer: async (req, caller, api) => {
    await withdrawTransferOffer(api.wallet, caller.party, req.contractId);
    return {};
  },
  listAcceptedTransferOffers: async (_req, caller, api) => ({
    acceptedOffers: (await listAcceptedTransferOffers(api.wallet, caller.party)).map((o) => contractToProto(o.record, api.ledger.registry)),
  }),
  createBuyTrafficRequest: async (req, caller, api) => ({
    requestContractId: await createBuyTrafficRequest(api.wallet, {
      party: caller.party,
      receivingValidator: req.receivingValidatorPartyId,
      synchronizerId: req.domainId,
      trafficAmount: req.trafficAmount,
      expiresAt: req.expiresAt,
      trackingId: req.trackingId,
      participantId: api.ledger.identity.participantId,
    }),
  }),
  getBuyTrafficRequestStatus: async (req, caller, api) => buyTrafficRequestStatusToProto(await getBuyTrafficRequestStatus(api.wallet, caller.party, req.trackingId)),
  listTransactions: async (req, caller, api) => ({
    items: (await listTransactions(api.wallet, { party: caller.party, beginAfterId: req.beginAfterId, pageSize: req.pageSize, withPrices: req.includeAmuletPrice === true })).map(historyItemToProto),
  }),
};
