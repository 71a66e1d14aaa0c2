/** Token-standard transfers (two-step) and minting delegations of the caller's party. */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { TransferInstructionResultResponseSchema } from "../../../../../gen/ccwallet/wallet/v0/wallet_internal_pb.js";
import type { WalletService } from "../../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import type { TransferInstructionResult } from "../../../../templates/splice/token-standard/transfer-instruction-v1.js";
import {
  acceptMintingDelegationProposal,
  acceptTokenStandardTransfer,
  createTokenStandardTransfer,
  knownParty,
  listMintingDelegationProposals,
  listMintingDelegations,
  listTokenStandardTransfers,
  parseAmount,
  rejectMintingDelegation,
  rejectMintingDelegationProposal,
  rejectTokenStandardTransfer,
  withdrawTokenStandardTransfer,
  type DelegationPage,
  type WalletUser,
} from "../../../../wallet/index.js";
import type { WalletApi } from "../wallet-api.js";
import { contractToProto } from "../contract-proto.js";
import type { Handler } from "../endpoints.js";

type Wallet = typeof WalletService;

export type TokenStandardMethod = "createTokenStandardTransfer" | "listTokenStandardTransfers" | "acceptTokenStandardTransfer" | "rejectTokenStandardTransfer" | "withdrawTokenStandardTransfer" | "listMintingDelegationProposals" | "acceptMintingDelegationProposal" | "rejectMintingDelegationProposal" | "listMintingDelegations" | "rejectMintingDelegation";

/** Splice's `transferInstructionResultToResponse`: the output without its tag, the metadata as a map. */
type ResultInit = MessageInitShape<typeof TransferInstructionResultResponseSchema>;
type OutputInit = NonNullable<NonNullable<ResultInit["output"]>["output"]>;

function outputToProto(output: TransferInstructionResult["output"]): OutputInit {
  switch (output.tag) {
    case "TransferInstructionResult_Pending":
      return { case: "pending", value: { transferInstructionCid: output.value.transferInstructionCid } };
    case "TransferInstructionResult_Completed":
      return { case: "completed", value: { receiverHoldingCids: output.value.receiverHoldingCids } };
    case "TransferInstructionResult_Failed":
      return { case: "failed", value: {} };
  }
}

function resultToProto(r: TransferInstructionResult): ResultInit {
  return { output: { output: outputToProto(r.output) }, senderChangeCids: r.senderChangeCids, meta: Object.fromEntries(r.meta.values) };
}

function pageToProto<P>(api: WalletApi, page: DelegationPage<P>) {
  return {
    items: page.items.map((i) => ({ contract: contractToProto(i.contract.record, api.ledger.registry), beneficiaryHosted: i.beneficiaryHosted })),
    nextPageToken: page.nextPageToken,
  };
}

export const tokenStandardHandlers: { [K in TokenStandardMethod]: Handler<Wallet, K, WalletUser> } = {
  createTokenStandardTransfer: async (req, caller, api) => {
    const amount = parseAmount("amount", req.amount);
    const receiver = await knownParty(api.wallet, "receiver_party_id", req.receiverPartyId);
    const result = await createTokenStandardTransfer(api.wallet, {
      sender: caller.party,
      receiver,
      amount,
      description: req.description,
      expiresAt: req.expiresAt,
      trackingId: req.trackingId,
    });
    return resultToProto(result);
  },
  listTokenStandardTransfers: async (_req, caller, api) => ({
    transfers: (await listTokenStandardTransfers(api.wallet, caller.party)).map((c) => contractToProto(c.record, api.ledger.registry)),
  }),
  acceptTokenStandardTransfer: async (req, caller, api) => resultToProto(await acceptTokenStandardTransfer(api.wallet, caller.party, req.contractId)),
  rejectTokenStandardTransfer: async (req, caller, api) => resultToProto(await rejectTokenStandardTransfer(api.wallet, caller.party, req.contractId)),
  withdrawTokenStandardTransfer: async (req, caller, api) => resultToProto(await withdrawTokenStandardTransfer(api.wallet, caller.party, req.contractId)),

  listMintingDelegationProposals: async (req, caller, api) => {
    const page = pageToProto(api, await listMintingDelegationProposals(api.wallet, caller.party, { after: req.after, limit: req.limit }));
    return { proposals: page.items, nextPageToken: page.nextPageToken };
  },
  acceptMintingDelegationProposal: async (req, caller, api) => ({ contractId: await acceptMintingDelegationProposal(api.wallet, caller.party, req.contractId) }),
  rejectMintingDelegationProposal: async (req, caller, api) => {
    await rejectMintingDelegationProposal(api.wallet, caller.party, req.contractId);
    return {};
  },
  listMintingDelegations: async (req, caller, api) => {
    const page = pageToProto(api, await listMintingDelegations(api.wallet, caller.party, { after: req.after, limit: req.limit }));
    return { delegations: page.items, nextPageToken: page.nextPageToken };
  },
  rejectMintingDelegation: async (req, caller, api) => {
    await rejectMintingDelegation(api.wallet, caller.party, req.contractId);
    return {};
  },
};
