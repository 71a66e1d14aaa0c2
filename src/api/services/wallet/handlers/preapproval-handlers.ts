/** The caller's own transfer preapproval and one-step sends through a receiver's. */
import { CreateTransferPreapprovalResponseSchema } from "../../../../../gen/ccwallet/wallet/v0/wallet_internal_pb.js";
import type { WalletService } from "../../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { createTransferPreapproval, knownParty, parseAmount, sendViaPreapproval, walletErrors, type WalletUser } from "../../../../wallet/index.js";
import type { Handler } from "../endpoints.js";
import { conflictWithResult } from "../wallet-connect-error.js";

type Wallet = typeof WalletService;

export type PreapprovalMethod = "createTransferPreapproval" | "transferPreapprovalSend";

export const preapprovalHandlers: { [K in PreapprovalMethod]: Handler<Wallet, K, WalletUser> } = {
  createTransferPreapproval: async (_req, caller, api) => {
    const outcome = await createTransferPreapproval(api.wallet, caller.party);
    const body = { transferPreapprovalContractId: outcome.contractId };
    if (!outcome.created) throw conflictWithResult(CreateTransferPreapprovalResponseSchema, body, `a transfer preapproval for ${caller.party} already exists: ${outcome.contractId}`);
    return body;
  },

  transferPreapprovalSend: async (req, caller, api) => {
    const amount = parseAmount("amount", req.amount);
    if (req.deduplicationId.length === 0) throw walletErrors.badRequest("deduplication_id must not be empty");
    const receiver = await knownParty(api.wallet, "receiver_party_id", req.receiverPartyId);
    await sendViaPreapproval(api.wallet, { sender: caller.party, receiver, amount, deduplicationId: req.deduplicationId, description: req.description });
    return {};
  },
};
