/**
 * Minting delegations (splice-wallet `Splice.Wallet.MintingDelegation`): a beneficiary (typically
 * an external party) lets a delegate on its validator mint the beneficiary's reward coupons and
 * merge its holdings, until `expiresAt`. Minting is a transfer with the beneficiary as sender and
 * no outputs, so everything the inputs are worth lands in one change holding.
 */
import { t, type ValueOf } from "../../../ledger/daml-type.js";
import { choice, defineTemplate, type Template } from "../../../ledger/template.js";
import { spliceName, spliceType } from "../packages.js";
import { PaymentTransferContext, TransferInput, TransferResult } from "../transfer-types.js";
import { exerciseTransfer, fetchRules } from "./payment-transfer.js";
import { updated } from "../../../util/extend.js";

const MODULE = "Splice.Wallet.MintingDelegation";
const ty = (entity: string) => spliceType("wallet", MODULE, entity);

const delegationPayload = t.record(
  { beneficiary: t.party, delegate: t.party, dso: t.party, expiresAt: t.time, amuletMergeLimit: t.int64 },
  ty("MintingDelegation"),
);
export type MintingDelegationPayload = ValueOf<typeof delegationPayload>;

const proposalPayload = t.record({ delegation: delegationPayload });
export type MintingDelegationProposalPayload = ValueOf<typeof proposalPayload>;

/** Splice returns records with a `dummyUnitField` where a choice has nothing to say. */
const dummyResult = (entity: string) => t.record({ dummyUnitField: t.unit }, ty(entity));
const dummy = () => ({ dummyUnitField: {} });

export const MintingDelegation_Mint = choice({
  name: "MintingDelegation_Mint",
  consuming: false,
  argument: t.record({ inputs: t.list(TransferInput), context: PaymentTransferContext }),
  result: t.record({ transferResult: TransferResult }, ty("MintingDelegation_MintResult")),
  controllers: (p: MintingDelegationPayload) => [p.delegate],
  body: async (ctx, self, arg) => {
    const p = self.payload;
    ctx.require(ctx.isLedgerTimeLT(p.expiresAt), `expiresAt is in the future: the delegation expired at ${p.expiresAt}`);
    await fetchRules(ctx, p.dso, arg.context.amuletRules, p.delegate);
    // Splice drops the featured-app right: the delegate must not earn featured rewards on
    // the beneficiary's mints.
    const transferResult = await exerciseTransfer(ctx, arg.context.amuletRules, updated(arg.context.context, { featuredAppRight: null }), {
      sender: p.beneficiary,
      provider: p.delegate,
      inputs: arg.inputs,
      outputs: [],
      beneficiaries: null,
    });
    return { transferResult };
  },
});

export const MintingDelegation_Reject = choice({
  name: "MintingDelegation_Reject",
  consuming: true,
  argument: t.record({}),
  result: dummyResult("MintingDelegation_RejectResult"),
  controllers: (p: MintingDelegationPayload) => [p.delegate],
  body: dummy,
});

export const MintingDelegation_Withdraw = choice({
  name: "MintingDelegation_Withdraw",
  consuming: true,
  argument: t.record({}),
  result: dummyResult("MintingDelegation_WithdrawResult"),
  controllers: (p: MintingDelegationPayload) => [p.beneficiary],
  body: dummy,
});

export const MintingDelegation: Template<MintingDelegationPayload> = defineTemplate<MintingDelegationPayload>({
  id: spliceName("wallet", MODULE, "MintingDelegation"),
  payload: delegationPayload,
  signatories: (p) => [p.beneficiary, p.delegate],
  choices: [MintingDelegation_Mint, MintingDelegation_Reject, MintingDelegation_Withdraw],
});

export const MintingDelegationProposal_Accept = choice({
  name: "MintingDelegationProposal_Accept",
  consuming: true,
  argument: t.record({ existingDelegationCid: t.optional(t.contractId) }),
  result: t.record({ mintingDelegationCid: t.contractId }, ty("MintingDelegationProposal_AcceptResult")),
  controllers: (p: MintingDelegationProposalPayload) => [p.delegation.delegate],
  body: async (ctx, self, arg) => {
    const d = self.payload.delegation;
    if (arg.existingDelegationCid) {
      // Replacing a delegation: it must be this beneficiary's, under this DSO, with this delegate.
      const existing = await ctx.fetch(MintingDelegation, arg.existingDelegationCid);
      ctx.require(existing.beneficiary === d.beneficiary && existing.dso === d.dso, "the existing delegation is the beneficiary's under the same DSO");
      ctx.require(existing.delegate === d.delegate, `existing delegate ${existing.delegate} === ${d.delegate}`);
      await ctx.archive(MintingDelegation, arg.existingDelegationCid);
    }
    return { mintingDelegationCid: await ctx.create(MintingDelegation, d) };
  },
});

export const MintingDelegationProposal_Reject = choice({
  name: "MintingDelegationProposal_Reject",
  consuming: true,
  argument: t.record({}),
  result: dummyResult("MintingDelegationProposal_RejectResult"),
  controllers: (p: MintingDelegationProposalPayload) => [p.delegation.delegate],
  body: dummy,
});

export const MintingDelegationProposal_Withdraw = choice({
  name: "MintingDelegationProposal_Withdraw",
  consuming: true,
  argument: t.record({}),
  result: dummyResult("MintingDelegationProposal_WithdrawResult"),
  controllers: (p: MintingDelegationProposalPayload) => [p.delegation.beneficiary],
  body: dummy,
});

export const MintingDelegationProposal: Template<MintingDelegationProposalPayload> = defineTemplate<MintingDelegationProposalPayload>({
  id: spliceName("wallet", MODULE, "MintingDelegationProposal"),
  payload: proposalPayload,
  signatories: (p) => [p.delegation.beneficiary],
  observers: (p) => [p.delegation.delegate],
  choices: [MintingDelegationProposal_Accept, MintingDelegationProposal_Reject, MintingDelegationProposal_Withdraw],
});
