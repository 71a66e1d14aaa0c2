/**
 * A receiver's request that a provider (its validator) set up a `TransferPreapproval` for it
 * (splice-wallet `Splice.Wallet.TransferPreapproval`). The provider accepts and pays the
 * preapproval fee for the chosen lifetime from its own holdings.
 */
import { t, type ValueOf } from "../../../ledger/daml-type.js";
import type { Numeric } from "../../../ledger/numeric.js";
import { choice, defineTemplate, type Template } from "../../../ledger/template.js";
import { AmuletRules, AmuletRules_CreateTransferPreapproval } from "../amulet-rules.js";
import { spliceName, spliceType } from "../packages.js";
import { PaymentTransferContext, TransferInput, TransferResult } from "../transfer-types.js";
import { fetchRules } from "./payment-transfer.js";

const MODULE = "Splice.Wallet.TransferPreapproval";

const payload = t.record({ receiver: t.party, provider: t.party, expectedDso: t.optional(t.party) });
export type TransferPreapprovalProposalPayload = ValueOf<typeof payload>;

interface CreateResult {
  readonly transferPreapprovalCid: string;
  readonly transferResult: TransferResult;
  readonly amuletPaid: Numeric;
}

export const TransferPreapprovalProposal_Accept = choice({
  name: "TransferPreapprovalProposal_Accept",
  consuming: true,
  argument: t.record({ context: PaymentTransferContext, inputs: t.list(TransferInput), expiresAt: t.time }),
  result: t.record(
    { transferPreapprovalCid: t.contractId, transferResult: TransferResult, amuletPaid: t.numeric() },
    spliceType("wallet", MODULE, "TransferPreapprovalProposal_AcceptResult"),
  ),
  controllers: (p: TransferPreapprovalProposalPayload) => [p.provider],
  body: async (ctx, self, arg) => {
    const { receiver, provider, expectedDso } = self.payload;
    // Splice hands `expectedDso` to the rules; this node's rules take no such argument.
    if (expectedDso !== null) await fetchRules(ctx, expectedDso, arg.context.amuletRules, provider);
    const result = (await ctx.exercise(AmuletRules, arg.context.amuletRules, AmuletRules_CreateTransferPreapproval, {
      context: arg.context,
      inputs: arg.inputs,
      receiver,
      provider,
      expiresAt: arg.expiresAt,
    })) as CreateResult;
    return { transferPreapprovalCid: result.transferPreapprovalCid, transferResult: result.transferResult, amuletPaid: result.amuletPaid };
  },
});

export const TransferPreapprovalProposal: Template<TransferPreapprovalProposalPayload> = defineTemplate<TransferPreapprovalProposalPayload>({
  id: spliceName("wallet", MODULE, "TransferPreapprovalProposal"),
  payload,
  signatories: (p) => [p.receiver],
  observers: (p) => [p.provider],
  choices: [TransferPreapprovalProposal_Accept],
});
