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

// Methods, not arrow properties, here and in the interpreter's effects: one context is built per
// choice, and tsx (esbuild's keepNames) wraps each named arrow in a `name` redefinition at
// creation, which cost a choice as much as its body's own work.
export function updateContextOf(effects: ChoiceEffects): UpdateContext {
  return {
    get ledgerTime() {
      return effects.readTime();
    },
    isLedgerTimeLT(time) {
      return effects.compareTime("LT", time);
    },
    isLedgerTimeLE(time) {
      return effects.compareTime("LE", time);
    },
    isLedgerTimeGT(time) {
      return effects.compareTime("GT", time);
    },
    isLedgerTimeGE(time) {
      return effects.compareTime("GE", time);
    },
    async fetch<P>(template: TemplateRef<P>, cid: string): Promise<P> {
      const live = await effects.fetch(cid);
      if (!isTemplate(live.template, template as TemplateRef<unknown>)) {
        throw errors.interpretation(`Contract ${cid} is of template ${live.record.templateId}, expected ${qualifiedId(template.id)}`);
      }
      return live.payload as P;
    },
    async fetchInterface<V>(iface: InterfaceDef<V>, cid: string) {
      const live = await effects.fetch(cid, iface as InterfaceDef<unknown>);
      const impl = live.template.interfaces.find((i) => i.iface === (iface as unknown));
      if (!impl) throw errors.interpretation(`Contract ${cid} does not implement ${qualifiedId(iface.id)}`);
      return { view: impl.view(live.payload) as V, template: live.template };
    },
    create<P>(template: Template<P>, payload: P) {
      return effects.create(template as Template<unknown>, payload);
    },
    async exercise<P, A, R>(template: TemplateRef<P>, cid: string, choice: Choice<P, A, R>, arg: A) {
      return (await effects.exercise(template as TemplateRef<unknown>, cid, choice as Choice<unknown>, arg)) as R;
    },
    async exerciseInterface<V, A, R>(iface: InterfaceDef<V>, cid: string, choice: InterfaceChoice<V, A, R>, arg: A) {
      return (await effects.exerciseInterface(iface as InterfaceDef<unknown>, cid, choice as InterfaceChoice<unknown>, arg)) as R;
    },
    async archive<P>(template: Template<P>, cid: string): Promise<void> {
      const tpl = template as Template<unknown>;
      await effects.exercise(tpl, cid, tpl.archive as Choice<unknown>, {});
    },
    async lookupByKey<P, K>(template: Template<P, K>, key: K) {
      if (!template.key) throw errors.interpretation(`${qualifiedId(template.id)} has no key`);
      return effects.lookupByKey(template as Template<unknown>, key);
    },
    require(condition: boolean, message: string): void {
      if (!condition) throw errors.interpretation(message);
    },
  };
}

/** Whether a contract's template is the one a choice body names (the template itself, or a ref by id). */
export function isTemplate(template: Template<unknown>, ref: TemplateRef<unknown>): boolean {
  return template === ref || template.id === ref.id || qualifiedId(template.id) === qualifiedId(ref.id);
}
