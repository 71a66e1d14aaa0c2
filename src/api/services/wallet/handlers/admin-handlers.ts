/** Validator admin endpoints on Canton Coin: the operator's preapprovals, external-party balances. */
import type { ValidatorAdminService } from "../../../../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import type { ContractRecord } from "../../../../ledger/records.js";
import { cancelOperatorPreapproval, getExternalPartyBalance, listOperatorPreapprovals, lookupOperatorPreapproval } from "../../../../wallet/index.js";
import { contractWithStateToProto } from "../contract-proto.js";
import type { Handler } from "../endpoints.js";
import type { WalletApi } from "../wallet-api.js";

type Admin = typeof ValidatorAdminService;

export type AdminCoinMethod = "listTransferPreapprovals" | "lookupTransferPreapprovalByParty" | "cancelTransferPreapprovalByParty" | "getExternalPartyBalance";

const withState = (api: WalletApi, c: ContractRecord) => contractWithStateToProto(c, api.ledger.registry, api.ledger.identity.synchronizerId);

export const adminCoinHandlers: { [K in AdminCoinMethod]: Handler<Admin, K, string> } = {
  listTransferPreapprovals: async (_req, _caller, api) => ({ contracts: (await listOperatorPreapprovals(api.wallet)).map((p) => withState(api, p.record)) }),
  lookupTransferPreapprovalByParty: async (req, _caller, api) => ({ transferPreapproval: withState(api, (await lookupOperatorPreapproval(api.wallet, req.receiverParty)).record) }),
  cancelTransferPreapprovalByParty: async (req, _caller, api) => {
    await cancelOperatorPreapproval(api.wallet, req.receiverParty);
    return {};
  },
  getExternalPartyBalance: async (req, _caller, api) => {
    const s = await getExternalPartyBalance(api.wallet, req.partyId);
    return {
      partyId: s.party,
      totalUnlockedCoin: s.totalUnlockedCoin.toString(),
      totalLockedCoin: s.totalLockedCoin.toString(),
      totalCoinHoldings: s.totalCoinHoldings.toString(),
      accumulatedHoldingFeesUnlocked: s.accumulatedHoldingFeesUnlocked.toString(),
      accumulatedHoldingFeesLocked: s.accumulatedHoldingFeesLocked.toString(),
      accumulatedHoldingFeesTotal: s.accumulatedHoldingFeesTotal.toString(),
      totalAvailableCoin: s.totalAvailableCoin.toString(),
      computedAsOfRound: s.computedAsOfRound,
    };
  },
};
