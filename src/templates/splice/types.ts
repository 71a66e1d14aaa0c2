/**
 * Daml data types shared by the Splice templates (Splice.Types, Splice.Fees, Splice.Expiry,
 * the token-standard metadata and holding types), with Splice's field names.
 */
import { t, type DamlType, type LazyT, type ValueOf } from "../../ledger/daml-type.js";
import { spliceType } from "./packages.js";

export const Round = t.record({ number: t.int64 }, spliceType("amulet", "Splice.Types", "Round"));
export type Round = ValueOf<typeof Round>;

export const RatePerRound = t.record({ rate: t.numeric() }, spliceType("amulet", "Splice.Fees", "RatePerRound"));
export type RatePerRound = ValueOf<typeof RatePerRound>;

export const ExpiringAmount = t.record(
  { initialAmount: t.numeric(), createdAt: Round, ratePerRound: RatePerRound },
  spliceType("amulet", "Splice.Fees", "ExpiringAmount"),
);
export type ExpiringAmount = ValueOf<typeof ExpiringAmount>;

export const FixedFee = t.record({ fee: t.numeric() }, spliceType("amulet", "Splice.Fees", "FixedFee"));
export const SteppedRate = t.record(
  { initialRate: t.numeric(), steps: t.list(t.record({ _1: t.numeric(), _2: t.numeric() })) },
  spliceType("amulet", "Splice.Fees", "SteppedRate"),
);

export const TimeLock = t.record(
  { holders: t.list(t.party), expiresAt: t.time, optContext: t.optional(t.text) },
  spliceType("amulet", "Splice.Expiry", "TimeLock"),
);
export type TimeLock = ValueOf<typeof TimeLock>;

/** DA.Time.RelTime: a duration in microseconds. */
export const RelTime = t.record({ microseconds: t.int64 }, { packageName: "daml-stdlib", moduleName: "DA.Time.Types", entityName: "RelTime" });
export type RelTime = ValueOf<typeof RelTime>;

export const Metadata = t.record({ values: t.textMap(t.text) }, spliceType("metadataV1", "Splice.Api.Token.MetadataV1", "Metadata"));
export type Metadata = ValueOf<typeof Metadata>;
export const emptyMetadata = (): Metadata => ({ values: new Map() });

/** Splice.Api.Token.MetadataV1.AnyValue: the values a choice context may carry. */
export const AnyValue: LazyT<AnyValueV> = t.lazy<AnyValueV>((): DamlType => AnyValueT);
export type AnyValueV =
  | { tag: "AV_Text"; value: string }
  | { tag: "AV_Int"; value: bigint }
  | { tag: "AV_Decimal"; value: import("../../ledger/numeric.js").Numeric }
  | { tag: "AV_Bool"; value: boolean }
  | { tag: "AV_Date"; value: string }
  | { tag: "AV_Time"; value: bigint }
  | { tag: "AV_RelTime"; value: RelTime }
  | { tag: "AV_Party"; value: string }
  | { tag: "AV_ContractId"; value: string }
  | { tag: "AV_List"; value: AnyValueV[] }
  | { tag: "AV_Map"; value: Map<string, AnyValueV> };
const AnyValueT: DamlType = t.variant(
  {
    AV_Text: t.text,
    AV_Int: t.int64,
    AV_Decimal: t.numeric(),
    AV_Bool: t.bool,
    AV_Date: t.date,
    AV_Time: t.time,
    AV_RelTime: RelTime,
    AV_Party: t.party,
    AV_ContractId: t.contractId,
    AV_List: t.list(AnyValue),
    AV_Map: t.textMap(AnyValue),
  },
  spliceType("metadataV1", "Splice.Api.Token.MetadataV1", "AnyValue"),
);

export const ChoiceContext = t.record({ values: t.textMap(AnyValue) }, spliceType("metadataV1", "Splice.Api.Token.MetadataV1", "ChoiceContext"));
export type ChoiceContext = ValueOf<typeof ChoiceContext>;
export const ExtraArgs = t.record({ context: ChoiceContext, meta: Metadata }, spliceType("metadataV1", "Splice.Api.Token.MetadataV1", "ExtraArgs"));
export type ExtraArgs = ValueOf<typeof ExtraArgs>;

export const InstrumentId = t.record({ admin: t.party, id: t.text }, spliceType("holdingV1", "Splice.Api.Token.HoldingV1", "InstrumentId"));
export type InstrumentId = ValueOf<typeof InstrumentId>;

/** CC's instrument id in the token standard: the DSO party is the admin. */
export const amuletInstrumentId = (dso: string): InstrumentId => ({ admin: dso, id: "Amulet" });

export const MICROS_PER_DAY = 86_400_000_000n;
