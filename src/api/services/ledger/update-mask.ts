/**
 * An update mask, as Canton reads one for UpdateUser and UpdatePartyDetails (UpdatePathsTrie,
 * UpdateMapperBase): a path names a field of the resource, or a prefix of some (`metadata`,
 * `local_metadata`).
 */
import { shorten } from "./object-meta.js";

/** How each field is named by the mask: exactly, or under a named prefix. */
export type MaskPaths<F extends string> = ReadonlyMap<F, "exact" | "prefix">;

/** The mask's paths over `fields`, checked: `invalid(reason)` for none, an unknown one or a repeated one. */
export function maskPaths<F extends string>(fields: readonly F[], paths: readonly string[], invalid: (reason: string) => Error): MaskPaths<F> {
  if (paths.length === 0) throw invalid("The update mask contains no entries");
  const named = new Map<F, "exact" | "prefix">();
  const seen = new Set<string>();
  for (const path of paths) {
    if (seen.has(path)) throw invalid(`The update path: '${shorten(path)}' is duplicated.`);
    seen.add(path);
    const under = fields.filter((f) => f === path || f.startsWith(`${path}.`));
    if (path === "" || under.length === 0) throw invalid(`The update path: '${shorten(path)}' points to an unknown field.`);
    for (const f of under) if (named.get(f) !== "exact") named.set(f, f === path ? "exact" : "prefix");
  }
  return named;
}

/** Whether the mask changes `field` to `value`: named exactly (even to its default), or under a prefix and set. */
export function takes<F extends string, T>(paths: MaskPaths<F>, field: F, value: T, unset: T): boolean {
  return paths.get(field) === "exact" || (paths.has(field) && value !== unset);
}

