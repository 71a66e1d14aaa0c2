/**
 * How CC's token-standard implementations turn standard arguments into `AmuletRules` transfers:
 * the payment context out of the choice context, holdings into transfer inputs, and the
 * created amulets back into holding ids (Splice `TokenApiUtils` / `TwoStepTransfer` helpers).
 */
import type { UpdateContext } from "../../../ledger/template.js";
import { AmuletRules, AmuletRules_Transfer } from "../amulet-rules.js";
import { Amulet, LockedAmulet, LockedAmulet_OwnerExpireLock } from "../amulet.js";
import { Holding } from "../holding-v1.js";
import { OpenMiningRound } from "../round.js";
import type { CreatedAmulet, PaymentTransferContext, Transfer, TransferInput, TransferResult } from "../transfer-types.js";
import type { ChoiceContext } from "../types.js";
import { CONTEXT_KEYS, getContextContractId, lookupContextContractId } from "./choice-context.js";

/** Splice `paymentFromChoiceContext` (featured) / `unfeaturedPaymentContextFromChoiceContext`. */
export async function paymentContextFrom(ctx: UpdateContext, dso: string, context: ChoiceContext, featured: boolean): Promise<PaymentTransferContext> {
  const amuletRules = getContextContractId(ctx, context, CONTEXT_KEYS.amuletRules);
  const openMiningRound = getContextContractId(ctx, context, CONTEXT_KEYS.openRound);
  const rules = await ctx.fetch(AmuletRules, amuletRules);
  ctx.require(rules.dso === dso, `AmuletRules ${amuletRules} belongs to the DSO ${dso}`);
  const round = await ctx.fetch(OpenMiningRound, openMiningRound);
  ctx.require(round.dso === dso, `OpenMiningRound ${openMiningRound} belongs to the DSO ${dso}`);
  const featuredAppRight = featured ? lookupContextContractId(ctx, context, CONTEXT_KEYS.featuredAppRight) : null;
  return { amuletRules, context: { openMiningRound, issuingMiningRounds: [], validatorRights: [], featuredAppRight } };
}

/** Splice `exercisePaymentTransfer`: the transfer through the DSO's `AmuletRules`. */
export async function exercisePaymentTransfer(ctx: UpdateContext, payment: PaymentTransferContext, transfer: Transfer): Promise<TransferResult> {
  return ctx.exercise(AmuletRules, payment.amuletRules, AmuletRules_Transfer, { transfer, context: payment.context });
}

/**
 * Splice `holdingToTransferInputs`: every holding must be the owner's CC under this DSO; a
 * LockedAmulet input is unlocked on the fly, which only succeeds once its lock has expired.
 */
export async function holdingsToTransferInputs(
  ctx: UpdateContext,
  dso: string,
  owner: string,
  payment: PaymentTransferContext,
  holdingCids: readonly string[],
): Promise<TransferInput[]> {
  const inputs: TransferInput[] = [];
  for (const cid of holdingCids) {
    const { view, template } = await ctx.fetchInterface(Holding, cid);
    ctx.require(view.owner === owner, `holding ${cid} is owned by ${owner}`);
    ctx.require(view.instrumentId.admin === dso && view.instrumentId.id === "Amulet", `holding ${cid} is Amulet of the DSO ${dso}`);
    if (template === (LockedAmulet as unknown)) {
      const result = await ctx.exercise(LockedAmulet, cid, LockedAmulet_OwnerExpireLock, { openRoundCid: payment.context.openMiningRound });
      inputs.push({ tag: "InputAmulet", value: result.amuletSum.amulet });
    } else {
      ctx.require(template === (Amulet as unknown), `holding ${cid} is an Amulet or a LockedAmulet`);
      inputs.push({ tag: "InputAmulet", value: cid });
    }
  }
  return inputs;
}

export const createdAmuletToHolding = (c: CreatedAmulet): string => c.value;

export const senderChangeOf = (result: TransferResult): string[] => (result.senderChangeAmulet ? [result.senderChangeAmulet] : []);
