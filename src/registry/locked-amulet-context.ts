/**
 * The choice context of a step that ends a two-step CC transfer (accept/reject/withdraw of a
 * transfer instruction; execute/withdraw/cancel of an allocation). While the LockedAmulet exists,
 * the step gets the rules, the open round and the locked amulet, with `expire-lock` true. Once
 * the sender has expired the lock itself, only a step returning the CC is possible, and it only
 * needs `expire-lock` false; a step that would move the CC gets 404.
 */
import { formatIsoMicros } from "../ledger/daml-type.js";
import { LockedAmulet } from "../templates/splice/amulet.js";
import { CONTEXT_KEYS } from "../templates/splice/token-standard/choice-context.js";
import { ChoiceContextBuilder, type ChoiceContextWithDisclosures } from "./choice-context-builder.js";
import { amuletRulesContext, type RegistryDeps } from "./registry-deps.js";
import { notFound } from "./registry-error.js";

export interface LockedAmuletStep {
  readonly lockedAmulet: string;
  /** Whether the step moves the CC to the receiver (it then needs the lock). */
  readonly transfers: boolean;
  /** Names the contract the lock backs, for the 404. */
  readonly owner: string;
  readonly deadline: bigint;
  /** Extra context entries a transferring step needs (a featured app right). */
  readonly extend?: (builder: ChoiceContextBuilder) => Promise<ChoiceContextBuilder>;
}

export async function lockedAmuletContext(deps: RegistryDeps, step: LockedAmuletStep, excludeDebugFields: boolean): Promise<ChoiceContextWithDisclosures> {
  const builder = await amuletRulesContext(deps, excludeDebugFields);
  const locked = await deps.client.contract(LockedAmulet, step.lockedAmulet);
  if (locked) {
    const extended = step.transfers && step.extend ? await step.extend(builder) : builder;
    return extended.disclose(locked.record).addBool(CONTEXT_KEYS.expireLock, true).build();
  }
  if (step.transfers) throw notFound(`LockedAmulet '${step.lockedAmulet}' not found for ${step.owner}, which expires on ${formatIsoMicros(step.deadline)}`);
  return new ChoiceContextBuilder(builder.synchronizerId, excludeDebugFields).addBool(CONTEXT_KEYS.expireLock, false).build();
}
