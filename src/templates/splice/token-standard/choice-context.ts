/**
 * Choice-context entries as Splice's registry (scan) passes them to token-standard choices
 * (`Splice.Amulet.TokenApiUtils`): reference data keyed by well-known names, each an `AnyValue`.
 * The registry builds them off ledger; the choice bodies read them back here.
 */
import type { UpdateContext } from "../../../ledger/template.js";
import type { AnyValueV, ChoiceContext } from "../types.js";

export const CONTEXT_KEYS = {
  amuletRules: "amulet-rules",
  openRound: "open-round",
  featuredAppRight: "featured-app-right",
  transferPreapproval: "transfer-preapproval",
  /** Tells abort paths whether the LockedAmulet still exists and should be unlocked. */
  expireLock: "expire-lock",
} as const;

export const anyValue = {
  contractId: (value: string): AnyValueV => ({ tag: "AV_ContractId", value }),
  bool: (value: boolean): AnyValueV => ({ tag: "AV_Bool", value }),
};

export function lookupContextContractId(ctx: UpdateContext, context: ChoiceContext, key: string): string | null {
  const v = context.values.get(key);
  if (v === undefined) return null;
  if (v.tag !== "AV_ContractId") ctx.require(false, `Expected contract id for: ${key}, got: ${v.tag}`);
  return v.value as string;
}

export function getContextContractId(ctx: UpdateContext, context: ChoiceContext, key: string): string {
  const cid = lookupContextContractId(ctx, context, key);
  if (cid === null) ctx.require(false, `Missing context entry for: ${key}`);
  return cid!;
}

export function getContextBool(ctx: UpdateContext, context: ChoiceContext, key: string): boolean {
  const v = context.values.get(key);
  if (v === undefined) ctx.require(false, `Missing context entry for: ${key}`);
  if (v!.tag !== "AV_Bool") ctx.require(false, `Expected bool: ${key}, got: ${v!.tag}`);
  return v!.value as boolean;
}
