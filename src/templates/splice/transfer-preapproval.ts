/**
 * `TransferPreapproval` (Splice.AmuletRules): a receiver's standing consent to receive CC from
 * anyone, managed (paid for and renewed) by a provider who earns the app rewards of the transfers
 * that use it. Past `expiresAt` it cannot be used and the DSO archives it.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { Numeric } from "../../ledger/numeric.js";
import { choice, defineTemplate, type Template } from "../../ledger/template.js";
import { AmuletRulesRef, currentConfig } from "./amulet-rules-payload.js";
import { AmuletRules_Transfer, preapprovalFee } from "./amulet-rules-transfer.js";
import { META, mergeMeta } from "./metadata.js";
import { spliceName } from "./packages.js";
import { splitAndBurn } from "./split-and-burn.js";
import { PaymentTransferContext, TransferInput, TransferResult, type TransferResult as TransferResultV } from "./transfer-types.js";
import { Metadata } from "./types.js";
import { updated } from "../../util/extend.js";

const payload = t.record({
  dso: t.party,
  receiver: t.party,
  provider: t.party,
  validFrom: t.time,
  lastRenewedAt: t.time,
  expiresAt: t.time,
});
export type TransferPreapprovalPayload = ValueOf<typeof payload>;

const unitResult = t.record({});

export const TransferPreapproval_Fetch = choice({
  name: "TransferPreapproval_Fetch",
  consuming: false,
  argument: t.record({ p: t.party }),
  result: payload,
  controllers: (_p: TransferPreapprovalPayload, arg) => [arg.p],
  body: (_ctx, self) => self.payload,
});

export const TransferPreapproval_Send = choice({
  name: "TransferPreapproval_Send",
  consuming: false,
  argument: t.record({ context: PaymentTransferContext, inputs: t.list(TransferInput), amount: t.numeric(), sender: t.party, description: t.optional(t.text) }),
  result: t.record({ result: TransferResult, meta: t.optional(Metadata) }),
  controllers: (_p: TransferPreapprovalPayload, arg) => [arg.sender],
  body: async (ctx, self, arg) => {
    const pre = self.payload;
    ctx.require(ctx.isLedgerTimeLT(pre.expiresAt), "TransferPreapproval.expiresAt has not passed: the preapproval is expired");
    const rules = await ctx.fetch(AmuletRulesRef, arg.context.amuletRules);
    ctx.require(rules.dso === pre.dso, "AmuletRules belongs to the preapproval's DSO");
    const result = (await ctx.exercise(AmuletRulesRef, arg.context.amuletRules, AmuletRules_Transfer, {
      transfer: {
        sender: arg.sender,
        provider: pre.provider,
        inputs: arg.inputs,
        outputs: [{ receiver: pre.receiver, receiverFeeRatio: Numeric.zero, amount: arg.amount, lock: null }],
        beneficiaries: null,
      },
      context: arg.context.context,
    })) as TransferResultV;
    const reason = arg.description ? { values: new Map([[META.reason, arg.description]]) } : null;
    return { result: updated(result, { meta: null }), meta: mergeMeta(result.meta, reason) };
  },
});

export const TransferPreapproval_Renew = choice({
  name: "TransferPreapproval_Renew",
  consuming: true,
  argument: t.record({ context: PaymentTransferContext, inputs: t.list(TransferInput), newExpiresAt: t.time }),
  result: t.record({
    transferPreapprovalCid: t.contractId,
    transferResult: TransferResult,
    receiver: t.party,
    provider: t.party,
    amuletPaid: t.numeric(),
    meta: t.optional(Metadata),
  }),
  controllers: (p: TransferPreapprovalPayload) => [p.provider],
  body: async (ctx, self, arg) => {
    const pre = self.payload;
    const now = ctx.ledgerTime;
    ctx.require(pre.expiresAt > now, "Contract is not expired");
    ctx.require(arg.newExpiresAt > pre.expiresAt, "newExpiresAt is after expiresAt");
    const rules = await ctx.fetch(AmuletRulesRef, arg.context.amuletRules);
    ctx.require(rules.dso === pre.dso, "AmuletRules belongs to the preapproval's DSO");
    const { amuletPaid } = await preapprovalFee(ctx, currentConfig(rules), arg.newExpiresAt - pre.expiresAt, arg.context.context, pre.dso);
    const { transferResult, meta } = await splitAndBurn(ctx, pre.provider, amuletPaid, arg.inputs, arg.context.context, pre.dso, "renew TransferPreapproval");
    const transferPreapprovalCid = await ctx.create(TransferPreapproval, updated(pre, { lastRenewedAt: now, expiresAt: arg.newExpiresAt }));
    return { transferPreapprovalCid, transferResult, receiver: pre.receiver, provider: pre.provider, amuletPaid, meta };
  },
});

export const TransferPreapproval_Expire = choice({
  name: "TransferPreapproval_Expire",
  consuming: true,
  argument: t.record({}),
  result: unitResult,
  controllers: (p: TransferPreapprovalPayload) => [p.dso],
  body: (ctx, self) => {
    ctx.require(ctx.ledgerTime >= self.payload.expiresAt, "Contract has expired");
    return {};
  },
});

export const TransferPreapproval_Cancel = choice({
  name: "TransferPreapproval_Cancel",
  consuming: true,
  argument: t.record({ p: t.party }),
  result: unitResult,
  controllers: (_p: TransferPreapprovalPayload, arg) => [arg.p],
  body: (ctx, self, arg) => {
    ctx.require([self.payload.receiver, self.payload.provider].includes(arg.p), `Controller ${arg.p} is either receiver or provider`);
    ctx.require(ctx.isLedgerTimeLT(self.payload.expiresAt), "TransferPreapproval.expiresAt has not passed");
    return {};
  },
});

export const TransferPreapproval: Template<TransferPreapprovalPayload> = defineTemplate<TransferPreapprovalPayload>({
  id: spliceName("amulet", "Splice.AmuletRules", "TransferPreapproval"),
  payload,
  signatories: (p) => [p.receiver, p.provider, p.dso],
  ensure: (p) => (p.expiresAt > p.validFrom && p.lastRenewedAt >= p.validFrom ? undefined : "expiresAt > validFrom && lastRenewedAt >= validFrom"),
  choices: [
    TransferPreapproval_Fetch,
    TransferPreapproval_Send,
    TransferPreapproval_Renew,
    TransferPreapproval_Expire,
    TransferPreapproval_Cancel,
  ],
});
