/**
 * The data of `AmuletRules_Transfer` (Splice.AmuletRules): what a client sends (Transfer,
 * TransferContext) and what it gets back (TransferResult with its TransferSummary).
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { spliceType } from "./packages.js";
import { Metadata, Round, TimeLock } from "./types.js";

const ty = (entity: string) => spliceType("amulet", "Splice.AmuletRules", entity);

export const TransferInput = t.variant(
  {
    InputAppRewardCoupon: t.contractId,
    InputValidatorRewardCoupon: t.contractId,
    InputAmulet: t.contractId,
    InputValidatorLivenessActivityRecord: t.contractId,
  },
  ty("TransferInput"),
);
export type TransferInput = ValueOf<typeof TransferInput>;

export const TransferOutput = t.record(
  { receiver: t.party, receiverFeeRatio: t.numeric(), amount: t.numeric(), lock: t.optional(TimeLock) },
  ty("TransferOutput"),
);
export type TransferOutput = ValueOf<typeof TransferOutput>;

export const AppRewardBeneficiary = t.record(
  { beneficiary: t.party, weight: t.numeric() },
  { packageName: "splice-api-featured-app-v1", moduleName: "Splice.Api.FeaturedAppRightV1", entityName: "AppRewardBeneficiary" },
);

export const Transfer = t.record(
  {
    sender: t.party,
    provider: t.party,
    inputs: t.list(TransferInput),
    outputs: t.list(TransferOutput),
    beneficiaries: t.optional(t.list(AppRewardBeneficiary)),
  },
  ty("Transfer"),
);
export type Transfer = ValueOf<typeof Transfer>;

export const TransferContext = t.record(
  {
    openMiningRound: t.contractId,
    issuingMiningRounds: t.genMap(Round, t.contractId),
    validatorRights: t.genMap(t.party, t.contractId),
    featuredAppRight: t.optional(t.contractId),
  },
  ty("TransferContext"),
);
export type TransferContext = ValueOf<typeof TransferContext>;

export const PaymentTransferContext = t.record({ amuletRules: t.contractId, context: TransferContext }, ty("PaymentTransferContext"));
export type PaymentTransferContext = ValueOf<typeof PaymentTransferContext>;

export const BalanceChange = t.record(
  { changeToInitialAmountAsOfRoundZero: t.numeric(), changeToHoldingFeesRate: t.numeric() },
  ty("BalanceChange"),
);
export type BalanceChange = ValueOf<typeof BalanceChange>;

export const TransferSummary = t.record(
  {
    inputAppRewardAmount: t.numeric(),
    inputValidatorRewardAmount: t.numeric(),
    inputSvRewardAmount: t.numeric(),
    inputAmuletAmount: t.numeric(),
    balanceChanges: t.genMap(t.party, BalanceChange),
    holdingFees: t.numeric(),
    outputFees: t.list(t.numeric()),
    senderChangeFee: t.numeric(),
    senderChangeAmount: t.numeric(),
    amuletPrice: t.numeric(),
    inputValidatorFaucetAmount: t.optional(t.numeric()),
  },
  ty("TransferSummary"),
);
export type TransferSummary = ValueOf<typeof TransferSummary>;

export const CreatedAmulet = t.variant(
  { TransferResultAmulet: t.contractId, TransferResultLockedAmulet: t.contractId },
  ty("CreatedAmulet"),
);
export type CreatedAmulet = ValueOf<typeof CreatedAmulet>;

export const TransferResult = t.record(
  {
    round: Round,
    summary: TransferSummary,
    createdAmulets: t.list(CreatedAmulet),
    senderChangeAmulet: t.optional(t.contractId),
    meta: t.optional(Metadata),
  },
  ty("TransferResult"),
);
export type TransferResult = ValueOf<typeof TransferResult>;

/** Context with only amulet inputs in mind (Splice `amuletTransferContext`). */
export const simpleTransferContext = (openMiningRound: string, featuredAppRight: string | null = null): TransferContext => ({
  openMiningRound,
  issuingMiningRounds: [],
  validatorRights: [],
  featuredAppRight,
});
