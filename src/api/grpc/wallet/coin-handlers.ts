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
import type { ScanProxyService } from "../../../../gen/ccwallet/validator/v0/scan_proxy_service_pb.js";
import type { TokenStandardRegistryService } from "../../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import type { ValidatorAdminService } from "../../../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import type { WalletService } from "../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { walletErrors, type WalletUser } from "../../../wallet/index.js";
import type { Handler } from "./endpoints.js";

type Wallet = typeof WalletService;
type Admin = typeof ValidatorAdminService;
type ScanProxy = typeof ScanProxyService;
type Registry = typeof TokenStandardRegistryService;

/** WalletService methods served by the use cases outside this file. */
export type NonCoinWalletMethod = "userStatus";
/** ValidatorAdminService methods served by the use cases outside this file. */
export type NonCoinAdminMethod = "onboardUser" | "listUsers" | "offboardUser";

const notYet =
  (endpoint: string) =>
  async (): Promise<never> => {
    throw walletErrors.unimplemented(`${endpoint} is not implemented yet (needs the Canton Coin model)`);
  };

/** Caller: an onboarded wallet user (its party acts). */
export const coinWalletHandlers: { [K in Exclude<keyof Wallet["method"], NonCoinWalletMethod>]: Handler<Wallet, K, WalletUser> } = {
  createTransferOffer: notYet("POST /v0/wallet/transfer-offers"),
  listTransferOffers: notYet("GET /v0/wallet/transfer-offers"),
  getTransferOfferStatus: notYet("POST /v0/wallet/transfer-offers/{tracking_id}/status"),
  createBuyTrafficRequest: notYet("POST /v0/wallet/buy-traffic-requests"),
  getBuyTrafficRequestStatus: notYet("POST /v0/wallet/buy-traffic-requests/{tracking_id}/status"),
  getBalance: notYet("GET /v0/wallet/balance"),
  listAmulets: notYet("GET /v0/wallet/amulets"),
  listTransactions: notYet("POST /v0/wallet/transactions"),
  acceptTransferOffer: notYet("POST /v0/wallet/transfer-offers/{contract_id}/accept"),
  rejectTransferOffer: notYet("POST /v0/wallet/transfer-offers/{contract_id}/reject"),
  withdrawTransferOffer: notYet("POST /v0/wallet/transfer-offers/{contract_id}/withdraw"),
  listAcceptedTransferOffers: notYet("GET /v0/wallet/accepted-transfer-offers"),
  tap: notYet("POST /v0/wallet/tap"),
  createTransferPreapproval: notYet("POST /v0/wallet/transfer-preapproval"),
  transferPreapprovalSend: notYet("POST /v0/wallet/transfer-preapproval/send"),
  createTokenStandardTransfer: notYet("POST /v0/wallet/token-standard/transfers"),
  listTokenStandardTransfers: notYet("GET /v0/wallet/token-standard/transfers"),
  acceptTokenStandardTransfer: notYet("POST /v0/wallet/token-standard/transfers/{contract_id}/accept"),
  rejectTokenStandardTransfer: notYet("POST /v0/wallet/token-standard/transfers/{contract_id}/reject"),
  withdrawTokenStandardTransfer: notYet("POST /v0/wallet/token-standard/transfers/{contract_id}/withdraw"),
  listMintingDelegationProposals: notYet("GET /v0/wallet/minting-delegation-proposals"),
  acceptMintingDelegationProposal: notYet("POST /v0/wallet/minting-delegation-proposals/{contract_id}/accept"),
  rejectMintingDelegationProposal: notYet("POST /v0/wallet/minting-delegation-proposals/{contract_id}/reject"),
  listMintingDelegations: notYet("GET /v0/wallet/minting-delegations"),
  rejectMintingDelegation: notYet("POST /v0/wallet/minting-delegations/{contract_id}/reject"),
  listAppRewardCoupons: notYet("GET /v0/wallet/app-reward-coupons"),
  listValidatorRewardCoupons: notYet("GET /v0/wallet/validator-reward-coupons"),
  listValidatorLivenessActivityRecords: notYet("GET /v0/wallet/validator-liveness-activity-records"),
};

/** Caller: the validator operator's user or a participant admin (its user id). */
export const coinAdminHandlers: { [K in Exclude<keyof Admin["method"], NonCoinAdminMethod>]: Handler<Admin, K, string> } = {
  listTransferPreapprovals: notYet("GET /v0/admin/transfer-preapprovals"),
  lookupTransferPreapprovalByParty: notYet("GET /v0/admin/transfer-preapprovals/by-party/{receiver-party}"),
  cancelTransferPreapprovalByParty: notYet("DELETE /v0/admin/transfer-preapprovals/by-party/{receiver-party}"),
  getExternalPartyBalance: notYet("GET /v0/admin/external-party/balance"),
};

/** Caller: any valid token (its user id). */
export const scanProxyHandlers: { [K in keyof ScanProxy["method"]]: Handler<ScanProxy, K, string> } = {
  getDsoPartyId: notYet("GET /v0/scan-proxy/dso-party-id"),
  getAmuletRules: notYet("GET /v0/scan-proxy/amulet-rules"),
  getOpenAndIssuingMiningRounds: notYet("GET /v0/scan-proxy/open-and-issuing-mining-rounds"),
  lookupTransferPreapprovalByParty: notYet("GET /v0/scan-proxy/transfer-preapprovals/by-party/{party}"),
  lookupTransferCommandCounterByParty: notYet("GET /v0/scan-proxy/transfer-command-counter/{party}"),
};

/** Caller: anyone (the registry API is public). */
export const registryHandlers: { [K in keyof Registry["method"]]: Handler<Registry, K, undefined> } = {
  getTransferFactory: notYet("POST /registry/transfer-instruction/v1/transfer-factory"),
  getTransferInstructionAcceptContext: notYet("POST /registry/transfer-instruction/v1/{id}/choice-contexts/accept"),
  getTransferInstructionRejectContext: notYet("POST /registry/transfer-instruction/v1/{id}/choice-contexts/reject"),
  getTransferInstructionWithdrawContext: notYet("POST /registry/transfer-instruction/v1/{id}/choice-contexts/withdraw"),
};
