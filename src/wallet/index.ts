export { newWalletLocal, type OnboardingDeps, type WalletDeps, type WalletLocal } from "./wallet-deps.js";
export { WalletError, walletErrors, walletErrorOf, kindOfCategory, type WalletErrorKind } from "./wallet-error.js";
export { noopWalletInstaller, type WalletInstaller } from "./wallet-installer.js";
export { noFeaturedAppRights, type FeaturedAppRights } from "./featured-app-rights.js";
export { findWalletUser, isValidatorAdmin, type WalletUser } from "./support/find-wallet-user.js";
export { onboardUser, partyHintOf, type OnboardUserInput } from "./use-cases/onboard-user.js";
export { offboardUser } from "./use-cases/offboard-user.js";
export { listUsers } from "./use-cases/list-users.js";
export { registerUser } from "./use-cases/register-user.js";
export { getValidatorUser, type ValidatorUserInfo } from "./use-cases/get-validator-user.js";
export { getUserStatus, type UserStatus } from "./use-cases/get-user-status.js";
export { getFeatureSupport, type FeatureSupport } from "./use-cases/get-feature-support.js";
export { parseAmount, parsePartyId, parseUserId } from "./support/wallet-input.js";
export { KeyedMutex } from "./support/keyed-mutex.js";
export { WalletUsers, type WalletUserRecord } from "./support/wallet-users.js";
export { ccWalletInstaller, type CcWalletInstallerOptions } from "./support/cc-wallet-installer.js";
export { createTransferPreapproval, type PreapprovalOutcome } from "./use-cases/create-transfer-preapproval.js";
export {
  acceptedPreapprovalOf,
  createExternalPartySetupProposal,
  listExternalPartySetupProposals,
  setupProposalAcceptCommand,
  transferCommandCreation,
  type ExternalCommand,
  type TransferCommandRequest,
} from "./use-cases/external-party-setup.js";
export { sendViaPreapproval, type PreapprovalSend } from "./use-cases/send-via-preapproval.js";
export { knownParty } from "./support/known-party.js";
export { createTokenStandardTransfer, type TokenStandardTransferRequest } from "./use-cases/create-token-standard-transfer.js";
export { listTokenStandardTransfers } from "./use-cases/list-token-standard-transfers.js";
export { answerTokenStandardTransfer, acceptTokenStandardTransfer, rejectTokenStandardTransfer, withdrawTokenStandardTransfer } from "./use-cases/answer-token-standard-transfer.js";
export { listMintingDelegationProposals, listMintingDelegations, DEFAULT_PAGE_LIMIT, type DelegationPage, type DelegationWithStatus, type PageRequest } from "./use-cases/list-minting-delegations.js";
export { acceptMintingDelegationProposal } from "./use-cases/accept-minting-delegation-proposal.js";
export { rejectMintingDelegationProposal, rejectMintingDelegation } from "./use-cases/reject-minting-delegation.js";
export { listOperatorPreapprovals, lookupOperatorPreapproval } from "./use-cases/operator-preapprovals.js";
export { cancelOperatorPreapproval } from "./use-cases/cancel-operator-preapproval.js";
export { getExternalPartyBalance, type HoldingsSummary } from "./use-cases/get-external-party-balance.js";
export { createTransferOffer, type CreateTransferOfferInput } from "./use-cases/create-transfer-offer.js";
export { listTransferOffers } from "./use-cases/list-transfer-offers.js";
export { listAcceptedTransferOffers } from "./use-cases/list-accepted-transfer-offers.js";
export { getTransferOfferStatus, type TransferOfferStatus, type TransferOfferFailure } from "./use-cases/get-transfer-offer-status.js";
export { acceptTransferOffer } from "./use-cases/accept-transfer-offer.js";
export { rejectTransferOffer } from "./use-cases/reject-transfer-offer.js";
export { withdrawTransferOffer, WITHDRAWN_BY_SENDER } from "./use-cases/withdraw-transfer-offer.js";
export { createBuyTrafficRequest, type CreateBuyTrafficRequestInput } from "./use-cases/create-buy-traffic-request.js";
export { getBuyTrafficRequestStatus, type BuyTrafficRequestStatus } from "./use-cases/get-buy-traffic-request-status.js";
export { listTransactions, MAX_PAGE_SIZE } from "./use-cases/list-transactions.js";
export { eventIdOf, parseEventId, type HistoryItem, type PartyAmount, type HistorySubtype } from "./support/history-items.js";
export { trackedCommandId } from "./support/tracked-submission.js";
export { HistoryIndex, DEFAULT_MAX_OFFSETS } from "./support/history-index.js";
export { HoldingsIndex, DEFAULT_MAX_HOLDINGS, type Held, type PartyHoldings, type HoldingsIndexOptions } from "./support/holdings-index.js";
export { TransferCommandIndex, DEFAULT_MAX_ENDED_COMMANDS, type TransferCommandEntry, type TransferCommandStatus } from "./support/transfer-command-index.js";
export { OfferIndex, DEFAULT_MAX_ENDED_OFFERS, type OfferIndexOptions } from "./support/offer-index.js";
