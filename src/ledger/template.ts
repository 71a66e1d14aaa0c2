/**
 * Templates, interfaces and choices as data plus pure functions. The engine is generic over a
 * registry of these; Canton Coin's templates are declared with the same helpers.
 */
import type { DamlType, RecordT, ValueOf } from "./daml-type.js";
import { t } from "./daml-type.js";
import type { ContractId } from "./ids.js";

/** A template or interface identity: package name and id, module path, entity name. */
export interface QualifiedName {
  readonly packageName: string;
  readonly packageId: string;
  readonly moduleName: string;
  readonly entityName: string;
  /** The package's version, when known (preferred-package answers name it). */
  readonly packageVersion?: string;
}

export const qualifiedId = (q: QualifiedName): string => `${q.packageId}:${q.moduleName}:${q.entityName}`;
export const packageNameRef = (q: QualifiedName): string => `#${q.packageName}:${q.moduleName}:${q.entityName}`;

/**
 * A template as far as fetching and exercising it from a choice body goes: its identity and payload
 * type. Every `Template<P>` is one; a template that the referenced template's own choices create
 * can hold a plain ref instead of importing the template (no import cycle between them).
 */
export interface TemplateRef<P> {
  readonly id: QualifiedName;
  readonly payload: RecordT<P>;
}

export interface ContractRef<P> {
  readonly contractId: ContractId;
  readonly payload: P;
}

/** What a choice body may do. Every effect goes through here so the engine can record and authorize it. */
export interface UpdateContext {
  /**
   * Daml `getTime`: the ledger effective time, microseconds since the epoch. Reading it fixes the
   * transaction to that time (an externally signed one must then be executed within the ledger
   * time tolerance); a comparison needs `isLedgerTime*`, which only bounds it.
   */
  readonly ledgerTime: bigint;
  /** Daml `isLedgerTimeLT time` (and LE, GT, GE): the answer, bounding the ledger time to keep it. */
  isLedgerTimeLT(time: bigint): boolean;
  isLedgerTimeLE(time: bigint): boolean;
  isLedgerTimeGT(time: bigint): boolean;
  isLedgerTimeGE(time: bigint): boolean;
  fetch<P>(template: TemplateRef<P>, cid: string): Promise<P>;
  fetchInterface<V>(iface: InterfaceDef<V>, cid: string): Promise<{ view: V; template: Template<unknown> }>;
  create<P>(template: Template<P>, payload: P): Promise<ContractId>;
  exercise<P, A, R>(template: TemplateRef<P>, cid: string, choice: Choice<P, A, R>, arg: A): Promise<R>;
  exerciseInterface<V, A, R>(iface: InterfaceDef<V>, cid: string, choice: InterfaceChoice<V, A, R>, arg: A): Promise<R>;
  archive<P>(template: Template<P>, cid: string): Promise<void>;
  lookupByKey<P, K>(template: Template<P, K>, key: K): Promise<ContractId | null>;
  /** Daml `assertMsg`: aborts the whole transaction with an interpretation error. */
  require(condition: boolean, message: string): void;
}

export interface Choice<P, A = unknown, R = unknown> {
  readonly name: string;
  readonly consuming: boolean;
  readonly argument: DamlType;
  readonly result: DamlType;
  controllers(payload: P, arg: A): readonly string[];
  choiceObservers?(payload: P, arg: A): readonly string[];
  body(ctx: UpdateContext, self: ContractRef<P>, arg: A): Promise<R> | R;
}

export interface InterfaceChoice<V, A = unknown, R = unknown> {
  readonly name: string;
  readonly consuming: boolean;
  readonly argument: DamlType;
  readonly result: DamlType;
  controllers(view: V, arg: A): readonly string[];
}

export interface InterfaceDef<V> {
  readonly id: QualifiedName;
  readonly view: DamlType;
  readonly choices: ReadonlyMap<string, InterfaceChoice<V>>;
}

export interface InterfaceImpl<P, V> {
  readonly iface: InterfaceDef<V>;
  view(payload: P): V;
  /** Bodies of the interface's choices for this template, by choice name. */
  readonly choices: Readonly<Record<string, (ctx: UpdateContext, self: ContractRef<P>, arg: never) => Promise<unknown> | unknown>>;
}

export interface ContractKey<P, K> {
  readonly type: DamlType;
  of(payload: P): K;
  maintainers(key: K): readonly string[];
}

export interface Template<P, K = unknown> extends TemplateRef<P> {
  signatories(payload: P): readonly string[];
  observers(payload: P): readonly string[];
  /** Daml `ensure`: returns a message when the payload is not allowed. */
  ensure?(payload: P): string | undefined;
  readonly key?: ContractKey<P, K>;
  /** Every choice by name, `Archive` included: for decoding by name (commands, events); code uses the exported choice constants. */
  readonly choices: ReadonlyMap<string, Choice<P>>;
  /** The implicit `Archive` choice (signatories, consuming, no argument). */
  readonly archive: Choice<P, Record<string, never>, Record<string, never>>;
  readonly interfaces: readonly InterfaceImpl<P, unknown>[];
}

export interface TemplateSpec<P, K> {
  id: QualifiedName;
  payload: RecordT<P>;
  signatories: (payload: P) => readonly string[];
  observers?: (payload: P) => readonly string[];
  ensure?: (payload: P) => string | undefined;
  key?: ContractKey<P, K>;
  choices?: readonly Choice<P, never, unknown>[];
  interfaces?: readonly InterfaceImpl<P, unknown>[];
}

/** The implicit `Archive` choice every Daml template has. */
const archiveArgument = t.record({});

export function defineTemplate<P, K = unknown>(spec: TemplateSpec<P, K>): Template<P, K> {
  const choices = new Map<string, Choice<P>>();
  for (const c of spec.choices ?? []) choices.set(c.name, c as Choice<P>);
  const archive: Choice<P, Record<string, never>, Record<string, never>> = {
    name: "Archive",
    consuming: true,
    argument: archiveArgument,
    result: t.unit,
    controllers: (p) => spec.signatories(p),
    body: () => ({}),
  };
  choices.set("Archive", archive as Choice<P>);
  return {
    id: spec.id,
    payload: spec.payload,
    signatories: spec.signatories,
    observers: spec.observers ?? (() => []),
    ensure: spec.ensure,
    key: spec.key,
    choices,
    archive,
    interfaces: (spec.interfaces ?? []) as readonly InterfaceImpl<P, unknown>[],
  };
}

/** Typed choice declaration: `choice({ name, argument: t.record({...}), ... })`. */
export function choice<P, AT extends DamlType, RT extends DamlType>(spec: {
  name: string;
  consuming: boolean;
  argument: AT;
  result: RT;
  controllers: (payload: P, arg: ValueOf<AT>) => readonly string[];
  choiceObservers?: (payload: P, arg: ValueOf<AT>) => readonly string[];
  body: (ctx: UpdateContext, self: ContractRef<P>, arg: ValueOf<AT>) => Promise<ValueOf<RT>> | ValueOf<RT>;
}): Choice<P, ValueOf<AT>, ValueOf<RT>> {
  return spec;
}

export function defineInterface<V>(spec: {
  id: QualifiedName;
  view: DamlType;
  choices?: readonly InterfaceChoice<V, never, unknown>[];
}): InterfaceDef<V> {
  const choices = new Map<string, InterfaceChoice<V>>();
  for (const c of spec.choices ?? []) choices.set(c.name, c as InterfaceChoice<V>);
  return { id: spec.id, view: spec.view, choices };
}

export function stakeholders<P>(template: Template<P>, payload: P): string[] {
  return [...new Set([...template.signatories(payload), ...template.observers(payload)])];
}
