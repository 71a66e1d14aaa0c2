/**
 * Which events of a transaction a reader sees, in Canton's two shapes:
 * ACS_DELTA (created and archived events for stakeholders) and LEDGER_EFFECTS (created and
 * exercised nodes for their witnesses). Filters select by party, template, interface or wildcard.
 */
import type { CreateNodeRecord, ExerciseNodeRecord, TransactionRecord } from "./records.js";

export interface IdentifierFilters {
  /** null: wildcard (any template). */
  readonly wildcard: { readonly includeCreatedEventBlob: boolean } | null;
  /** By template id in package-id form. */
  readonly templates: ReadonlyMap<string, { readonly includeCreatedEventBlob: boolean }>;
  /** By interface id in package-id form. */
  readonly interfaces: ReadonlyMap<string, { readonly includeInterfaceView: boolean; readonly includeCreatedEventBlob: boolean }>;
}

export interface EventFormat {
  readonly byParty: ReadonlyMap<string, IdentifierFilters>;
  /** Filters for every party (party-wildcard), if requested. */
  readonly anyParty?: IdentifierFilters;
  readonly verbose: boolean;
}

export type TransactionShape = "ACS_DELTA" | "LEDGER_EFFECTS";

export interface TransactionFormat {
  readonly eventFormat: EventFormat;
  readonly shape: TransactionShape;
}

export type ProjectedEvent =
  | {
      readonly kind: "created";
      readonly node: CreateNodeRecord;
      readonly witnesses: readonly string[];
      readonly includeCreatedEventBlob: boolean;
      /** Interface ids whose views were asked for. */
      readonly interfaceViews: readonly string[];
      readonly acsDelta: boolean;
    }
  | { readonly kind: "archived"; readonly node: ExerciseNodeRecord; readonly witnesses: readonly string[] }
  | { readonly kind: "exercised"; readonly node: ExerciseNodeRecord; readonly witnesses: readonly string[]; readonly acsDelta: boolean };

export const wildcardFilters: IdentifierFilters = { wildcard: { includeCreatedEventBlob: false }, templates: new Map(), interfaces: new Map() };

interface Match {
  readonly blob: boolean;
  readonly views: readonly string[];
}

function matchTemplate(f: IdentifierFilters, templateId: string, interfaces: readonly string[]): Match | undefined {
  let matched = false;
  let blob = false;
  const views: string[] = [];
  if (f.wildcard) {
    matched = true;
    blob ||= f.wildcard.includeCreatedEventBlob;
  }
  const t = f.templates.get(templateId);
  if (t) {
    matched = true;
    blob ||= t.includeCreatedEventBlob;
  }
  for (const i of interfaces) {
    const iff = f.interfaces.get(i);
    if (iff) {
      matched = true;
      blob ||= iff.includeCreatedEventBlob;
      if (iff.includeInterfaceView) views.push(i);
    }
  }
  return matched ? { blob, views } : undefined;
}

/**
 * Who among the requested readers sees an event with these candidate witnesses, and with what
 * options. Returns undefined when nobody does.
 */
export function visibleTo(
  format: EventFormat,
  candidates: readonly string[],
  templateId: string,
  interfaces: readonly string[],
): { witnesses: string[]; blob: boolean; views: string[] } | undefined {
  const witnesses: string[] = [];
  let blob = false;
  const views = new Set<string>();
  for (const party of candidates) {
    const f = format.byParty.get(party) ?? format.anyParty;
    const m = f && matchTemplate(f, templateId, interfaces);
    if (!m) continue;
    witnesses.push(party);
    blob ||= m.blob;
    m.views.forEach((v) => views.add(v));
  }
  return witnesses.length > 0 ? { witnesses, blob, views: [...views] } : undefined;
}

/**
 * Whether a reader sees the command id of a transaction (Canton): when the parties it asks for
 * include one of the submitters (act_as), whichever events it sees; a party-wildcard reader
 * always does.
 */
export function showsCommandId(submitters: readonly string[], format: EventFormat): boolean {
  if (format.anyParty) return submitters.length > 0;
  return submitters.some((p) => format.byParty.has(p));
}

/** Interfaces a template implements, by template id; supplied by the registry. */
export type InterfacesOf = (templateId: string) => readonly string[];

export function projectTransaction(tx: TransactionRecord, format: TransactionFormat, interfacesOf: InterfacesOf): ProjectedEvent[] {
  return format.shape === "ACS_DELTA" ? projectAcsDelta(tx, format.eventFormat, interfacesOf) : projectLedgerEffects(tx, format.eventFormat, interfacesOf);
}

function projectAcsDelta(tx: TransactionRecord, format: EventFormat, interfacesOf: InterfacesOf): ProjectedEvent[] {
  const consumed = new Set<string>();
  const created = new Set<string>();
  for (const n of tx.nodes) {
    if (n.kind === "exercise" && n.consuming) consumed.add(n.contractId);
    if (n.kind === "create") created.add(n.contractId);
  }
  const out: ProjectedEvent[] = [];
  for (const n of tx.nodes) {
    if (n.kind === "create") {
      if (consumed.has(n.contractId)) continue; // transient: not part of the ACS delta
      const r = visibleTo(format, [...n.signatories, ...n.observers], n.templateId, interfacesOf(n.templateId));
      if (r) out.push({ kind: "created", node: n, witnesses: r.witnesses, includeCreatedEventBlob: r.blob, interfaceViews: r.views, acsDelta: true });
    } else if (n.consuming && !created.has(n.contractId)) {
      const r = visibleTo(format, n.stakeholders, n.templateId, n.implementedInterfaces);
      if (r) out.push({ kind: "archived", node: n, witnesses: r.witnesses });
    }
  }
  return out;
}

function projectLedgerEffects(tx: TransactionRecord, format: EventFormat, interfacesOf: InterfacesOf): ProjectedEvent[] {
  const consumed = new Set<string>();
  const created = new Set<string>();
  for (const n of tx.nodes) {
    if (n.kind === "exercise" && n.consuming) consumed.add(n.contractId);
    if (n.kind === "create") created.add(n.contractId);
  }
  const out: ProjectedEvent[] = [];
  for (const n of tx.nodes) {
    if (n.kind === "create") {
      const r = visibleTo(format, n.witnesses, n.templateId, interfacesOf(n.templateId));
      const stakeholders = new Set([...n.signatories, ...n.observers]);
      if (r) {
        out.push({
          kind: "created",
          node: n,
          witnesses: r.witnesses,
          includeCreatedEventBlob: r.blob,
          interfaceViews: r.views,
          acsDelta: !consumed.has(n.contractId) && r.witnesses.some((w) => stakeholders.has(w)),
        });
      }
    } else {
      const r = visibleTo(format, n.witnesses, n.templateId, n.implementedInterfaces);
      if (r) {
        out.push({
          kind: "exercised",
          node: n,
          witnesses: r.witnesses,
          acsDelta: n.consuming && !created.has(n.contractId) && r.witnesses.some((w) => n.stakeholders.includes(w)),
        });
      }
    }
  }
  return out;
}
