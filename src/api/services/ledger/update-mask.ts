/**
 * What UpdateUser and UpdatePartyDetails share, as Canton reads an update mask (UpdatePathsTrie,
 * UpdateMapperBase) and merges a resource's `ObjectMeta`: a path names a field of the resource, or
 * a prefix of some (`metadata`, `local_metadata`); annotations merge, a key with an empty value is
 * removed; each change bumps the resource version.
 */

/** How each field is named by the mask: exactly, or under a named prefix. */
export type MaskPaths<F extends string> = ReadonlyMap<F, "exact" | "prefix">;

/** At most this many bytes of annotations (keys and values, UTF-8), as Canton allows a user or a party. */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

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

/** `held` with `update` merged in: an empty value removes its key. */
export function mergedAnnotations(held: Readonly<Record<string, string>>, update: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...held };
  for (const [k, v] of Object.entries(update)) {
    if (v === "") delete out[k];
    else out[k] = v;
  }
  return out;
}

export const annotationsBytes = (a: Readonly<Record<string, string>>): number =>
  Object.entries(a).reduce((n, [k, v]) => n + Buffer.byteLength(k, "utf8") + Buffer.byteLength(v, "utf8"), 0);

/** The version after `version` (a counter; anything else starts it again at 1). */
export const nextResourceVersion = (version: string): string => String(/^\d{1,30}$/.test(version) ? BigInt(version) + 1n : 1n);

const shorten = (s: string) => (s.length > 53 ? `${s.slice(0, 50)}...` : s);
