/**
 * The mining rounds (Splice.Round). Rounds move open → summarizing → issuing → closed as ledger
 * time passes, driven by the DSO's automation through `AmuletRules` choices. Open rounds fix the
 * price and fees a transfer uses; issuing rounds fix what reward coupons mint.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { choice, defineTemplate, type Template } from "../../ledger/template.js";
import { IssuanceConfig, TransferConfig } from "./amulet-config.js";
import { spliceName } from "./packages.js";
import { RelTime, Round } from "./types.js";

const MODULE = "Splice.Round";

const openMiningRound = t.record({
  dso: t.party,
  round: Round,
  amuletPrice: t.numeric(),
  opensAt: t.time,
  targetClosesAt: t.time,
  issuingFor: RelTime,
  transferConfigUsd: TransferConfig,
  tickDuration: RelTime,
  issuanceConfig: IssuanceConfig,
});
export type OpenMiningRoundPayload = ValueOf<typeof openMiningRound>;

const fetchArg = t.record({ p: t.party });

export const OpenMiningRound_Fetch = choice({
  name: "OpenMiningRound_Fetch",
  consuming: false,
  argument: fetchArg,
  result: openMiningRound,
  controllers: (_p: OpenMiningRoundPayload, arg) => [arg.p],
  body: (_ctx, self) => self.payload,
});

export const OpenMiningRound: Template<OpenMiningRoundPayload> = defineTemplate<OpenMiningRoundPayload>({
  id: spliceName("amulet", MODULE, "OpenMiningRound"),
  payload: openMiningRound,
  signatories: (p) => [p.dso],
  ensure: (p) => (p.amuletPrice.isPositive() ? undefined : "amuletPrice must be positive"),
  choices: [OpenMiningRound_Fetch],
});

const summarizingMiningRound = t.record({
  dso: t.party,
  round: Round,
  amuletPrice: t.numeric(),
  issuanceConfig: IssuanceConfig,
  tickDuration: RelTime,
});
export type SummarizingMiningRoundPayload = ValueOf<typeof summarizingMiningRound>;

export const SummarizingMiningRound: Template<SummarizingMiningRoundPayload> = defineTemplate<SummarizingMiningRoundPayload>({
  id: spliceName("amulet", MODULE, "SummarizingMiningRound"),
  payload: summarizingMiningRound,
  signatories: (p) => [p.dso],
});

const issuance = {
  issuancePerValidatorRewardCoupon: t.numeric(),
  issuancePerFeaturedAppRewardCoupon: t.numeric(),
  issuancePerUnfeaturedAppRewardCoupon: t.numeric(),
  issuancePerSvRewardCoupon: t.numeric(),
  optIssuancePerValidatorFaucetCoupon: t.optional(t.numeric()),
};

const issuingMiningRound = t.record({ dso: t.party, round: Round, ...issuance, opensAt: t.time, targetClosesAt: t.time });
export type IssuingMiningRoundPayload = ValueOf<typeof issuingMiningRound>;

export const IssuingMiningRound: Template<IssuingMiningRoundPayload> = defineTemplate<IssuingMiningRoundPayload>({
  id: spliceName("amulet", MODULE, "IssuingMiningRound"),
  payload: issuingMiningRound,
  signatories: (p) => [p.dso],
});

const closedMiningRound = t.record({ dso: t.party, round: Round, ...issuance });
export type ClosedMiningRoundPayload = ValueOf<typeof closedMiningRound>;

export const ClosedMiningRound: Template<ClosedMiningRoundPayload> = defineTemplate<ClosedMiningRoundPayload>({
  id: spliceName("amulet", MODULE, "ClosedMiningRound"),
  payload: closedMiningRound,
  signatories: (p) => [p.dso],
});

export const roundTemplates = [OpenMiningRound, SummarizingMiningRound, IssuingMiningRound, ClosedMiningRound] as const;
