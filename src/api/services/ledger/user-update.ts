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
import { annotationsBytes, MAX_ANNOTATIONS_BYTES, mergedAnnotations, nextResourceVersion } from "./object-meta.js";
import { maskPaths, takes, type MaskPaths } from "./update-mask.js";
import { updated } from "../../../util/extend.js";

/** The fields of `User` an update path may name, as paths of field names. */
const FIELDS = ["id", "primary_party", "is_deactivated", "metadata.annotations", "metadata.resource_version", "identity_provider_id"] as const;
type Field = (typeof FIELDS)[number];

export type UpdatePaths = MaskPaths<Field>;

/** The mask's paths, checked: INVALID_USER_UPDATE_REQUEST for none, an unknown one or a repeated one. */
export function userUpdatePaths(userId: string, paths: readonly string[]): UpdatePaths {
  return maskPaths(FIELDS, paths, (reason) => errors.invalidUserUpdate(userId, reason));
}

/** The request's fields the mask names. */
export interface UserChanges {
  readonly primaryParty: string;
  readonly isDeactivated: boolean;
  readonly annotations: Readonly<Record<string, string>>;
}

/** `user` with the named fields changed, and a new resource version when anything changed. */
export function updatedUser(user: UserRecord, paths: UpdatePaths, changes: UserChanges): UserRecord {
  let next = user;
  if (takes(paths, "primary_party", changes.primaryParty, "") && changes.primaryParty !== user.primaryParty) {
    next = updated(next, { primaryParty: changes.primaryParty });
  }
  if (takes(paths, "is_deactivated", changes.isDeactivated, false) && changes.isDeactivated !== user.isDeactivated) {
    next = updated(next, { isDeactivated: changes.isDeactivated });
  }
  if (paths.has("metadata.annotations") && Object.keys(changes.annotations).length > 0) {
    const annotations = mergedAnnotations(user.metadata.annotations, changes.annotations);
    if (annotationsBytes(annotations) > MAX_ANNOTATIONS_BYTES) throw errors.userAnnotationsTooLarge(user.id);
    next = updated(next, { metadata: updated(next.metadata, { annotations }) });
  }
  if (next === user) return user;
  return updated(next, { metadata: updated(next.metadata, { resourceVersion: nextResourceVersion(user.metadata.resourceVersion) }) });
}
