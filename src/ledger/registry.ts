/**
 * Lookup of templates and interfaces by the id forms clients send: `#package-name:Module:Entity`
 * (package-name reference) and `package-id:Module:Entity` (package-id reference).
 */
import { hash } from "node:crypto";
import { errors } from "./errors.js";
import type { InterfaceDef, QualifiedName, Template } from "./template.js";
import { qualifiedId } from "./template.js";

const packageIds = new Map<string, string>();

/**
 * A stable, Canton-looking package id (64 hex chars) for a package name and version, remembered:
 * the ids of a handful of packages are asked for per value converted.
 */
export function packageIdOf(packageName: string, version: string): string {
  const key = `${packageName}-${version}`;
  let id = packageIds.get(key);
  if (id === undefined) {
    id = hash("sha256", key, "hex");
    if (packageIds.size < 10_000) packageIds.set(key, id);
  }
  return id;
}

export function qualifiedName(packageName: string, version: string, moduleName: string, entityName: string): QualifiedName {
  return { packageName, packageId: packageIdOf(packageName, version), moduleName, entityName, packageVersion: version };
}

export interface IdParts {
  readonly packageRef: string;
  readonly moduleName: string;
  readonly entityName: string;
}

/** Splits `pkg:Mod.Path:Entity`; returns undefined for anything else. */
export function parseIdString(id: string): IdParts | undefined {
  const parts = id.split(":");
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) return undefined;
  return { packageRef: parts[0], moduleName: parts[1], entityName: parts[2] };
}

type Entry = { kind: "template"; template: Template<unknown> } | { kind: "interface"; iface: InterfaceDef<unknown> };

export class TemplateRegistry {
  private readonly byKey = new Map<string, Entry>();
  private readonly implementers = new Map<string, Template<unknown>[]>();

  constructor(templates: readonly Template<never>[] = []) {
    for (const tpl of templates) this.addTemplate(tpl);
  }

  addTemplate<P>(template: Template<P>): this {
    const tpl = template as unknown as Template<unknown>;
    this.index(tpl.id, { kind: "template", template: tpl });
    for (const impl of tpl.interfaces) {
      this.index(impl.iface.id, { kind: "interface", iface: impl.iface });
      const key = qualifiedId(impl.iface.id);
      this.implementers.set(key, [...(this.implementers.get(key) ?? []), tpl]);
    }
    return this;
  }

  /** An interface no template here implements yet: filters on it are valid and match nothing. */
  addInterface<V>(iface: InterfaceDef<V>): this {
    this.index(iface.id, { kind: "interface", iface: iface as unknown as InterfaceDef<unknown> });
    return this;
  }

  private index(q: QualifiedName, entry: Entry): void {
    this.byKey.set(`${q.packageId}:${q.moduleName}:${q.entityName}`, entry);
    this.byKey.set(`#${q.packageName}:${q.moduleName}:${q.entityName}`, entry);
  }

  /** Resolves a template or interface from either id form, or undefined. */
  find(id: string): Entry | undefined {
    return this.byKey.get(id);
  }

  template(id: string): Template<unknown> {
    const e = this.byKey.get(id);
    if (!e || e.kind !== "template") throw errors.templateNotFound(id);
    return e.template;
  }

  templates(): Template<unknown>[] {
    const seen = new Set<Template<unknown>>();
    for (const e of this.byKey.values()) if (e.kind === "template") seen.add(e.template);
    return [...seen];
  }

  /** The ids of the packages that define the known templates and interfaces, sorted. */
  packageIds(): string[] {
    const ids = new Set<string>();
    for (const key of this.byKey.keys()) if (!key.startsWith("#")) ids.add(key.slice(0, key.indexOf(":")));
    return [...ids].sort();
  }

  /** The package (id and version) that defines the known templates and interfaces of `packageName`. */
  packageNamed(packageName: string): { readonly packageId: string; readonly packageName: string; readonly packageVersion: string } | undefined {
    for (const e of this.byKey.values()) {
      const id = e.kind === "template" ? e.template.id : e.iface.id;
      if (id.packageName === packageName) return { packageId: id.packageId, packageName, packageVersion: id.packageVersion ?? "0.0.0" };
    }
    return undefined;
  }

  implementersOf(iface: InterfaceDef<unknown>): readonly Template<unknown>[] {
    return this.implementers.get(qualifiedId(iface.id)) ?? [];
  }
}
