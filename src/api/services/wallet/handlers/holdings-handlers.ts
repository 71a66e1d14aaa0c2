/** Balance, holdings, tap and reward-coupon lists of the caller's party. */
import type { WalletService } from "../../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import type { Template } from "../../../../ledger/template.js";
import { AppRewardCoupon, ValidatorRewardCoupon } from "../../../../templates/splice/amulet.js";
import { ValidatorLivenessActivityRecord } from "../../../../templates/splice/validator-license.js";
import { getBalance } from "../../../../wallet/use-cases/get-balance.js";
import { parseAmount, type WalletUser } from "../../../../wallet/index.js";
import { listAmulets } from "../../../../wallet/use-cases/list-amulets.js";
import type { Position } from "../../../../wallet/support/holdings.js";
import type { ContractRecord } from "../../../../ledger/records.js";
import { tap } from "../../../../wallet/use-cases/tap.js";
import { contractToProto, contractWithStateToProto } from "../contract-proto.js";
import type { Handler } from "../endpoints.js";
import type { WalletApi } from "../wallet-api.js";

type Wallet = typeof WalletService;

export type HoldingsMethod = "getBalance" | "listAmulets" | "tap" | "listAppRewardCoupons" | "listValidatorRewardCoupons" | "listValidatorLivenessActivityRecords";

/** Splice lists at most this many coupons. */
const COUPON_LIST_LIMIT = 1000;

const positionToProto = (api: WalletApi, p: Position<ContractRecord>) => ({
  contract: contractWithStateToProto(p.contract, api.ledger.registry, api.ledger.identity.synchronizerId),
  round: p.round,
  accruedHoldingFee: p.accruedHoldingFee.toString(),
  effectiveAmount: p.effectiveAmount.toString(),
});

/** The party's contracts of `template` that the network's DSO signed (anyone can sign one naming itself as `dso`). */
async function contractsOf<P extends { readonly dso: string }>(api: WalletApi, template: Template<P>, party: string, mine: (p: P) => boolean) {
  const active = await api.wallet.client.active(template, [party]);
  return active
    .filter((c) => c.payload.dso === api.wallet.dso && mine(c.payload))
    .slice(0, COUPON_LIST_LIMIT)
    .map((c) => contractToProto(c.record, api.ledger.registry));
}

export const holdingsHandlers: { [K in HoldingsMethod]: Handler<Wallet, K, WalletUser> } = {
  getBalance: async (_req, caller, api) => {
    const b = await getBalance(api.wallet, caller.party);
    return {
      round: b.round,
      effectiveUnlockedQty: b.effectiveUnlocked.toString(),
      effectiveLockedQty: b.effectiveLocked.toString(),
      totalHoldingFees: b.totalHoldingFees.toString(),
    };
  },
  listAmulets: async (_req, caller, api) => {
    const list = await listAmulets(api.wallet, caller.party);
    return { amulets: list.amulets.map((p) => positionToProto(api, p)), lockedAmulets: list.lockedAmulets.map((p) => positionToProto(api, p)) };
  },
  tap: async (req, caller, api) => ({ contractId: await tap(api.wallet, caller.party, parseAmount("amount", req.amount), req.commandId) }),
  listAppRewardCoupons: async (_req, caller, api) => ({
    appRewardCoupons: await contractsOf(api, AppRewardCoupon, caller.party, (c) => (c.beneficiary ?? c.provider) === caller.party),
  }),
  listValidatorRewardCoupons: async (_req, caller, api) => ({
    validatorRewardCoupons: await contractsOf(api, ValidatorRewardCoupon, caller.party, (c) => c.user === caller.party),
  }),
  listValidatorLivenessActivityRecords: async (_req, caller, api) => ({
    validatorLivenessActivityRecords: await contractsOf(api, ValidatorLivenessActivityRecord, caller.party, (c) => c.validator === caller.party),
  }),
};
