/**
 * `ExternalPartySetupProposal` (Splice.AmuletRules): the validator's offer to host an external
 * party; accepting it (signed by the external party) creates the `ValidatorRight` and a
 * `TransferPreapproval` with the validator as provider, already paid for by the validator.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { choice, defineTemplate, type Template } from "../../ledger/template.js";
import { ValidatorRight } from "./amulet.js";
import { spliceName } from "./packages.js";
import { TransferPreapproval } from "./transfer-preapproval.js";
import { assertWithinDeadline } from "../../ledger/deadlines.js";

const payload = t.record({ validator: t.party, user: t.party, dso: t.party, createdAt: t.time, preapprovalExpiresAt: t.time });
export type ExternalPartySetupProposalPayload = ValueOf<typeof payload>;

export const ExternalPartySetupProposal_Accept = choice({
  name: "ExternalPartySetupProposal_Accept",
  consuming: true,
  argument: t.record({}),
  result: t.record({ validatorRightCid: t.contractId, transferPreapprovalCid: t.contractId }),
  controllers: (p: ExternalPartySetupProposalPayload) => [p.user],
  body: async (ctx, self) => {
    const { dso, validator, user, createdAt, preapprovalExpiresAt } = self.payload;
    assertWithinDeadline(ctx, "ExternalPartySetupProposal.preapprovalExpiresAt", preapprovalExpiresAt);
    const validatorRightCid = await ctx.create(ValidatorRight, { dso, validator, user });
    const transferPreapprovalCid = await ctx.create(TransferPreapproval, {
      dso,
      receiver: user,
      provider: validator,
      validFrom: createdAt,
      lastRenewedAt: createdAt,
      expiresAt: preapprovalExpiresAt,
    });
    return { validatorRightCid, transferPreapprovalCid };
  },
});

export const ExternalPartySetupProposal: Template<ExternalPartySetupProposalPayload> = defineTemplate<ExternalPartySetupProposalPayload>({
  id: spliceName("amulet", "Splice.AmuletRules", "ExternalPartySetupProposal"),
  payload,
  signatories: (p) => [p.validator, p.dso],
  observers: (p) => [p.user],
  choices: [ExternalPartySetupProposal_Accept],
});
