/**
 * The UpdateContext a choice body runs with: its typed surface (fetch by template or interface,
 * exercise, archive, keys, time) over the effects of one choice, which the interpretation binds to
 * the body's authorizers and witnesses and records (interpreter.ts holds the rules).
 */
import { errors } from "./errors.js";
import type { ContractId } from "./ids.js";
import type { Choice, InterfaceChoice, InterfaceDef, Template, TemplateRef, UpdateContext } from "./template.js";
import { qualifiedId } from "./template.js";
import type { TimeComparison } from "./time-bounds.js";

/** A contract a body fetched. */
export interface FetchedContract {
  readonly template: Template<unknown>;
  readonly payload: unknown;
  readonly record: { readonly templateId: string };
}

/** What one choice body's effects do, already bound to its authorizers and witnesses. */
export interface ChoiceEffects {
  /** `getTime`: the ledger time, which the transaction then depends on. */
  readTime(): bigint;
  compareTime(op: TimeComparison, time: bigint): boolean;
  fetch(cid: string, iface?: InterfaceDef<unknown>): Promise<FetchedContract>;
  create(template: Template<unknown>, payload: unknown): Promise<ContractId>;
  exercise(template: TemplateRef<unknown>, cid: string, choice: Choice<unknown>, argument: unknown): Promise<unknown>;
  exerciseInterface(iface: InterfaceDef<unknown>, cid: string, choice: InterfaceChoice<unknown>, argument: unknown): Promise<unknown>;
  lookupByKey(template: Template<unknown>, key: unknown): Promise<ContractId | null>;
}

/**
 * The context of one choice body. A class, so that its methods and its `ledgerTime` getter live
 * once on the prototype: V8 makes each object of a literal with a getter a dictionary of its own,
 * and scavenges promoted those objects with all their closures held, each choice's whole
 * interpretation included (docs/decisions.md, session 21).
 */
class BoundContext implements UpdateContext {
  constructor(private readonly effects: ChoiceEffects) {}

  get ledgerTime(): bigint {
    return this.effects.readTime();
  }
  isLedgerTimeLT(time: bigint): boolean {
    return this.effects.compareTime("LT", time);
  }
  isLedgerTimeLE(time: bigint): boolean {
    return this.effects.compareTime("LE", time);
  }
  isLedgerTimeGT(time: bigint): boolean {
    return this.effects.compareTime("GT", time);
  }
  isLedgerTimeGE(time: bigint): boolean {
    return this.effects.compareTime("GE", time);
  }
  async fetch<P>(template: TemplateRef<P>, cid: string): Promise<P> {
    const live = await this.effects.fetch(cid);
    if (!isTemplate(live.template, template as TemplateRef<unknown>)) {
      throw errors.interpretation(`Contract ${cid} is of template ${live.record.templateId}, expected ${qualifiedId(template.id)}`);
    }
    return live.payload as P;
  }
  async fetchInterface<V>(iface: InterfaceDef<V>, cid: string): Promise<{ view: V; template: Template<unknown> }> {
    const live = await this.effects.fetch(cid, iface as InterfaceDef<unknown>);
    const impl = live.template.interfaces.find((i) => i.iface === (iface as unknown));
    if (!impl) throw errors.interpretation(`Contract ${cid} does not implement ${qualifiedId(iface.id)}`);
    return { view: impl.view(live.payload) as V, template: live.template };
  }
  create<P>(template: Template<P>, payload: P): Promise<ContractId> {
    return this.effects.create(template as Template<unknown>, payload);
  }
  async exercise<P, A, R>(template: TemplateRef<P>, cid: string, choice: Choice<P, A, R>, arg: A): Promise<R> {
    return (await this.effects.exercise(template as TemplateRef<unknown>, cid, choice as Choice<unknown>, arg)) as R;
  }
  async exerciseInterface<V, A, R>(iface: InterfaceDef<V>, cid: string, choice: InterfaceChoice<V, A, R>, arg: A): Promise<R> {
    return (await this.effects.exerciseInterface(iface as InterfaceDef<unknown>, cid, choice as InterfaceChoice<unknown>, arg)) as R;
  }
  async archive<P>(template: Template<P>, cid: string): Promise<void> {
    const tpl = template as Template<unknown>;
    await this.effects.exercise(tpl, cid, tpl.archive as Choice<unknown>, {});
  }
  async lookupByKey<P, K>(template: Template<P, K>, key: K): Promise<ContractId | null> {
    if (!template.key) throw errors.interpretation(`${qualifiedId(template.id)} has no key`);
    return this.effects.lookupByKey(template as Template<unknown>, key);
  }
  require(condition: boolean, message: string): void {
    if (!condition) throw errors.interpretation(message);
  }
}

export function updateContextOf(effects: ChoiceEffects): UpdateContext {
  return new BoundContext(effects);
}

/** Whether a contract's template is the one a choice body names (the template itself, or a ref by id). */
export function isTemplate(template: Template<unknown>, ref: TemplateRef<unknown>): boolean {
  return template === ref || template.id === ref.id || qualifiedId(template.id) === qualifiedId(ref.id);
}
