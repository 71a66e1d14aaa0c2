/**
 * UpdateUser's update mask, as Canton reads it (UpdateRequestsPaths.UserPaths, UpdateMapperBase):
 * a path names a field of `User`, or a prefix of one (`metadata`). A field named exactly takes
 * the request's value, even its default (`primary_party` "" clears it); a field under a named
 * prefix changes only when the request gives a value. Annotations merge: a key with an empty
 * value is removed, the others are set. `id`, `metadata.resource_version` and
 * `identity_provider_id` may be named and change nothing: the first names the user, the second
 * guards against a concurrent update.
 */
import { errors } from "../../../ledger/errors.js";
import type { UserRecord } from "../../../ledger/records.js";

/** The fields of `User` an update path may name, as paths of field names. */
const FIELDS = ["id", "primary_party", "is_deactivated", "metadata.annotations", "metadata.resource_version", "identity_provider_id"] as const;
type Field = (typeof FIELDS)[number];

/** At most this many bytes of annotations (keys and values, UTF-8), as Canton allows a user. */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** How each field is named by the mask: exactly, or under a named prefix. */
export type UpdatePaths = ReadonlyMap<Field, "exact" | "prefix">;

/** The mask's paths, checked: INVALID_USER_UPDATE_REQUEST for none, an unknown one or a repeated one. */
export function userUpdatePaths(userId: string, paths: readonly string[]): UpdatePaths {
  if (paths.length === 0) throw errors.invalidUserUpdate(userId, "The update mask contains no entries");
  const named = new Map<Field, "exact" | "prefix">();
  const seen = new Set<string>();
  for (const path of paths) {
    if (seen.has(path)) throw errors.invalidUserUpdate(userId, `The update path: '${shorten(path)}' is duplicated.`);
    seen.add(path);
    const under = FIELDS.filter((f) => f === path || f.startsWith(`${path}.`));
    if (path === "" || under.length === 0) throw errors.invalidUserUpdate(userId, `The update path: '${shorten(path)}' points to an unknown field.`);
    for (const f of under) if (named.get(f) !== "exact") named.set(f, f === path ? "exact" : "prefix");
  }
  return named;
}

/** The request's fields the mask names. */
export interface UserChanges {
  readonly primaryParty: string;
  readonly isDeactivated: boolean;
  readonly annotations: Readonly<Record<string, string>>;
}

/** `user` with the named fields changed, and a new resource version when anything changed. */
export function updatedUser(user: UserRecord, paths: UpdatePaths, changes: UserChanges): UserRecord {
  const takes = <T>(field: Field, value: T, unset: T): boolean => paths.get(field) === "exact" || (paths.has(field) && value !== unset);
  let next = user;
  if (takes("primary_party", changes.primaryParty, "") && changes.primaryParty !== user.primaryParty) next = { ...next, primaryParty: changes.primaryParty };
  if (takes("is_deactivated", changes.isDeactivated, false) && changes.isDeactivated !== user.isDeactivated) next = { ...next, isDeactivated: changes.isDeactivated };
  if (paths.has("metadata.annotations") && Object.keys(changes.annotations).length > 0) {
    const annotations = merged(user.metadata.annotations, changes.annotations);
    if (annotationsBytes(annotations) > MAX_ANNOTATIONS_BYTES) throw errors.userAnnotationsTooLarge(user.id);
    next = { ...next, metadata: { ...next.metadata, annotations } };
  }
  if (next === user) return user;
  const version = user.metadata.resourceVersion;
  return { ...next, metadata: { ...next.metadata, resourceVersion: String(/^\d{1,30}$/.test(version) ? BigInt(version) + 1n : 1n) } };
}

function merged(held: Readonly<Record<string, string>>, update: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...held };
  for (const [k, v] of Object.entries(update)) {
    if (v === "") delete out[k];
    else out[k] = v;
  }
  return out;
}

export const annotationsBytes = (a: Readonly<Record<string, string>>): number =>
  Object.entries(a).reduce((n, [k, v]) => n + Buffer.byteLength(k, "utf8") + Buffer.byteLength(v, "utf8"), 0);

const shorten = (s: string) => (s.length > 53 ? `${s.slice(0, 50)}...` : s);
