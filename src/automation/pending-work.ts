/**
 * The automation loop's book of owed work: which steps have something to look at, and for which
 * parties. Committed transactions add the stakeholders of the watched contracts they created or
 * archived; a clock tick owes every timed step a full look; a step that failed for a reason other
 * than contention waits for the next tick (so a failure that would repeat does not spin the loop).
 */
import type { TransactionRecord } from "../ledger/records.js";
import { qualifiedId } from "../ledger/template.js";
import type { AutomationStep, Scope } from "./automation-step.js";

type Owed = "all" | Set<string>;

export class PendingWork {
  private owed = new Map<AutomationStep, Owed>();
  private readonly retryOnTick = new Map<AutomationStep, Owed>();
  private readonly watchers = new Map<string, AutomationStep[]>();

  constructor(private readonly steps: readonly AutomationStep[]) {
    for (const step of steps) {
      for (const t of step.watches) {
        const id = qualifiedId(t.id);
        this.watchers.set(id, [...(this.watchers.get(id) ?? []), step]);
      }
    }
  }

  get isEmpty(): boolean {
    return this.owed.size === 0;
  }

  /** Everything, for everyone (start, an explicit run, a jump of static time). */
  everything(): void {
    for (const step of this.steps) this.owe(step, "all");
    this.retryOnTick.clear();
  }

  /** Ledger time moved on: timed steps look at everything, failed ones try again. */
  tick(): void {
    for (const step of this.steps) if (step.timed) this.owe(step, "all");
    for (const [step, scope] of this.retryOnTick) this.owe(step, scope);
    this.retryOnTick.clear();
  }

  /** Records what a committed transaction changed; true if some step now has work. */
  changed(tx: TransactionRecord): boolean {
    let any = false;
    for (const node of tx.nodes) {
      if (node.kind === "exercise" && !node.consuming) continue;
      const steps = this.watchers.get(node.templateId);
      if (!steps) continue;
      const parties = node.kind === "create" ? [...node.signatories, ...node.observers] : node.stakeholders;
      for (const step of steps) this.owe(step, new Set(parties));
      any = true;
    }
    return any;
  }

  /** Takes the owed work (clearing the book), in step order. */
  take(): Map<AutomationStep, Scope> {
    const taken = new Map<AutomationStep, Scope>();
    for (const step of this.steps) {
      const scope = this.owed.get(step);
      if (scope) taken.set(step, scope);
    }
    this.owed = new Map();
    return taken;
  }

  /** Owes `step` a look at `scope` again (it acted and may have more, or it lost a race). */
  owe(step: AutomationStep, scope: Scope): void {
    merge(this.owed, step, scope);
  }

  /** Owes `step` a look at `scope` at the next tick. */
  retryLater(step: AutomationStep, scope: Scope): void {
    merge(this.retryOnTick, step, scope);
  }
}

function merge(book: Map<AutomationStep, Owed>, step: AutomationStep, scope: Scope): void {
  const current = book.get(step);
  if (current === "all") return;
  if (scope === "all") book.set(step, "all");
  else if (current) for (const p of scope) current.add(p);
  else book.set(step, new Set(scope));
}
