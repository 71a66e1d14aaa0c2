export * from "../payment.js";
export * from "./payment-transfer.js";
export * from "./transfer-offer.js";
export * from "./buy-traffic-request.js";
export * from "./minting-delegation.js";
export * from "./transfer-preapproval-proposal.js";
export * from "./install.js";
export * from "./token-transfer-call.js";
export * from "../merge-delegation.js";

import type { Template } from "../../../ledger/template.js";
import { mergeDelegationTemplates } from "../merge-delegation.js";
import { BuyTrafficRequest } from "./buy-traffic-request.js";
import { WalletAppInstall } from "./install.js";
import { MintingDelegation, MintingDelegationProposal } from "./minting-delegation.js";
import { AcceptedTransferOffer, TransferOffer } from "./transfer-offer.js";
import { TransferPreapprovalProposal } from "./transfer-preapproval-proposal.js";

/** The wallet-side Splice templates (splice-wallet, splice-util-token-standard-wallet). */
export const walletTemplates: readonly Template<never>[] = [
  TransferOffer,
  AcceptedTransferOffer,
  BuyTrafficRequest,
  MintingDelegationProposal,
  MintingDelegation,
  TransferPreapprovalProposal,
  WalletAppInstall,
  ...mergeDelegationTemplates,
] as unknown as Template<never>[];
