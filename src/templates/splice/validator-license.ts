/**
 * Validator licenses and liveness (Splice.ValidatorLicense). Once per open round a validator may
 * record that it is alive; the record mints the round's validator faucet issuance when used as
 * a transfer input while its round is issuing.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { choice, defineTemplate, type Template } from "../../ledger/template.js";
import { spliceName } from "./packages.js";
import { ClosedMiningRound, OpenMiningRound } from "./round.js";
import { Round } from "./types.js";
import { updated } from "../../util/extend.js";

const MODULE = "Splice.ValidatorLicense";

const livenessPayload = t.record({ dso: t.party, validator: t.party, round: Round });
export type ValidatorLivenessActivityRecordPayload = ValueOf<typeof livenessPayload>;

export const ValidatorLivenessActivityRecord_DsoExpire = choice({
  name: "ValidatorLivenessActivityRecord_DsoExpire",
  consuming: true,
  argument: t.record({ closedRoundCid: t.contractId }),
  result: t.record({}),
  controllers: (p: ValidatorLivenessActivityRecordPayload) => [p.dso],
  body: async (ctx, self, arg) => {
    const closed = await ctx.fetch(ClosedMiningRound, arg.closedRoundCid);
    ctx.require(closed.round.number === self.payload.round.number, `round ${self.payload.round.number} is closed`);
    return {};
  },
});

export const ValidatorLivenessActivityRecord: Template<ValidatorLivenessActivityRecordPayload> = defineTemplate<ValidatorLivenessActivityRecordPayload>({
  id: spliceName("amulet", MODULE, "ValidatorLivenessActivityRecord"),
  payload: livenessPayload,
  signatories: (p) => [p.dso],
  observers: (p) => [p.validator],
  choices: [ValidatorLivenessActivityRecord_DsoExpire],
});

const FaucetState = t.record({ firstReceivedFor: Round, lastReceivedFor: Round, numCouponsMissed: t.int64 });
const licensePayload = t.record({
  validator: t.party,
  sponsor: t.party,
  dso: t.party,
  faucetState: t.optional(FaucetState),
  lastActiveAt: t.optional(t.time),
});
export type ValidatorLicensePayload = ValueOf<typeof licensePayload>;

export const ValidatorLicense_RecordValidatorLivenessActivity = choice({
  name: "ValidatorLicense_RecordValidatorLivenessActivity",
  consuming: true,
  argument: t.record({ openRoundCid: t.contractId }),
  result: t.record({ licenseCid: t.contractId, activityRecordCid: t.contractId }),
  controllers: (p: ValidatorLicensePayload) => [p.validator],
  body: async (ctx, self, arg) => {
    const p = self.payload;
    const round = await ctx.fetch(OpenMiningRound, arg.openRoundCid);
    ctx.require(round.dso === p.dso, "round belongs to the license's DSO");
    ctx.require(round.opensAt <= ctx.ledgerTime, "OpenMiningRound is open");
    const last = p.faucetState?.lastReceivedFor.number;
    ctx.require(last === undefined || last < round.round.number, "liveness not yet recorded for this round");
    const faucetState = p.faucetState
      ? {
          firstReceivedFor: p.faucetState.firstReceivedFor,
          lastReceivedFor: round.round,
          numCouponsMissed: p.faucetState.numCouponsMissed + (round.round.number - p.faucetState.lastReceivedFor.number - 1n),
        }
      : { firstReceivedFor: round.round, lastReceivedFor: round.round, numCouponsMissed: 0n };
    const activityRecordCid = await ctx.create(ValidatorLivenessActivityRecord, { dso: p.dso, validator: p.validator, round: round.round });
    const licenseCid = await ctx.create(ValidatorLicense, updated(p, { faucetState, lastActiveAt: ctx.ledgerTime }));
    return { licenseCid, activityRecordCid };
  },
});

export const ValidatorLicense: Template<ValidatorLicensePayload> = defineTemplate<ValidatorLicensePayload>({
  id: spliceName("amulet", MODULE, "ValidatorLicense"),
  payload: licensePayload,
  signatories: (p) => [p.dso],
  observers: (p) => [p.validator],
  choices: [ValidatorLicense_RecordValidatorLivenessActivity],
});

export const validatorLicenseTemplates = [ValidatorLicense, ValidatorLivenessActivityRecord] as const;
