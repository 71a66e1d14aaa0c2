/**
 * Helpers the wallet templates share (Splice's `exercisePaymentTransfer` and
 * `fetchPublicReferenceData`): a payment runs `AmuletRules_Transfer` on the rules the caller
 * passed in, and the rules must belong to the DSO the workflow names, so a delegate cannot make
 * a wallet pay through another network's rules. Splice checks that inside the transfer
 * (`expectedDso`); this node's `AmuletRules_Transfer` has no such argument yet, so the check is
 * a fetch choice here, or follows from the open round (whose DSO the transfer checks against
 * the rules) where a workflow fetches the round anyway.
 */
import type { UpdateContext } from "../../../ledger/template.js";
import { AmuletRules, AmuletRules_Fetch, AmuletRules_Transfer, type AmuletRulesPayload } from "../amulet-rules.js";
import { OpenMiningRound, OpenMiningRound_Fetch, type OpenMiningRoundPayload } from "../round.js";
import type { Transfer, TransferContext, TransferResult } from "../transfer-types.js";

/** Reads the rules as `actor` (they are not visible to users, hence a fetch choice) and checks the DSO. */
export async function fetchRules(ctx: UpdateContext, dso: string, rulesCid: string, actor: string): Promise<AmuletRulesPayload> {
  const payload = await ctx.exercise(AmuletRules, rulesCid, AmuletRules_Fetch, { p: actor });
  ctx.require(payload.dso === dso, `AmuletRules ${rulesCid} belongs to the DSO ${dso}`);
  return payload;
}

export async function fetchOpenRound(ctx: UpdateContext, dso: string, roundCid: string, actor: string): Promise<OpenMiningRoundPayload> {
  const round = await ctx.exercise(OpenMiningRound, roundCid, OpenMiningRound_Fetch, { p: actor });
  ctx.require(round.dso === dso, `OpenMiningRound ${roundCid} belongs to the DSO ${dso}`);
  return round;
}

/** `AmuletRules_Transfer` from inside a workflow choice, with the workflow's authority. */
export async function exerciseTransfer(ctx: UpdateContext, rulesCid: string, context: TransferContext, transfer: Transfer): Promise<TransferResult> {
  return ctx.exercise(AmuletRules, rulesCid, AmuletRules_Transfer, { transfer, context });
}
