/** Token-standard transfers (two-step) and minting delegations of the caller's party. */
import type { WalletService } from "../../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import type { WalletUser } from "../../../../wallet/index.js";
import type { Handler } from "../endpoints.js";
import { notYet } from "./not-yet.js";

type Wallet = typeof WalletService;

export type TokenStandardMethod = "createTokenStandardTransfer" | "listTokenStandardTransfers" | "acceptTokenStandardTransfer" | "rejectTokenStandardTransfer" | "withdrawTokenStandardTransfer" | "listMintingDelegationProposals" | "acceptMintingDelegationProposal" | "rejectMintingDelegationProposal" | "listMintingDelegations" | "rejectMintingDelegation";

export const tokenStandardHandlers: { [K in TokenStandardMethod]: Handler<Wallet, K, WalletUser> } = {
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
};
