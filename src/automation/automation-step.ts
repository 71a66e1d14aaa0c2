/**
 * One kind of housekeeping the node's automation loop runs (the simulated DSO's, the token
 * standard's, the validator's wallet triggers). A step says what can give it work, so the loop
 * runs it only then: when contracts of a template it watches are created or archived, and, for a
 * timed step, as ledger time passes. A busy ledger therefore costs a step nothing until something
 * it cares about changes.
 */
import type { QualifiedName } from "../ledger/template.js";
import type { NetworkState } from "../network/network-state.js";

/** Which parties may have work: all of them, or the stakeholders of watched contracts that changed. */
export type Scope = "all" | ReadonlySet<string>;

export interface AutomationStep {
  /** For logs. */
  readonly name: string;
  /** Templates whose contracts, created or archived, can give the step work. */
  readonly watches: readonly Watched[];
  /** Whether work also comes due as ledger time passes (expiries, renewals, rounds): run on every tick. */
  readonly timed: boolean;
  /** Does what is due; `true` when it changed the ledger (the loop then reads the network again). */
  readonly run: (state: NetworkState, now: bigint, scope: Scope) => Promise<boolean>;
}

/** A template, as far as watching it goes (any payload type). */
export interface Watched {
  readonly id: QualifiedName;
}

export const inScope = (scope: Scope, party: string): boolean => scope === "all" || scope.has(party);

/** Declares a step: what gives it work, and what it does. */
export function automationStep(
  name: string,
  when: { readonly watches?: readonly Watched[]; readonly timed?: boolean },
  run: AutomationStep["run"],
): AutomationStep {
  return { name, watches: when.watches ?? [], timed: when.timed ?? false, run };
}
