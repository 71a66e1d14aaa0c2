/**
 * UpdatePartyDetails, as Canton applies it (UpdateRequestsPaths.PartyDetailsPaths,
 * PartyRecordUpdateMapper, ApiPartyManagementService): a mask path names a field of
 * `PartyDetails`, or the `local_metadata` prefix. Only the annotations change, merged as a user's
 * are. `party` names the party, `local_metadata.resource_version` guards against a concurrent
 * update, `identity_provider_id` may be named and changes nothing (UpdatePartyIdentityProviderId
 * moves a party), and `is_local` may be named only with the value the party has: it is not
 * modifiable. Every accepted update bumps the resource version, as Canton's party record store
 * does, even one that leaves the annotations as they were.
 */
import { errors } from "../../../ledger/errors.js";
import type { PartyRecord } from "../../../ledger/records.js";
import { annotationsBytes, MAX_ANNOTATIONS_BYTES, mergedAnnotations, nextResourceVersion } from "./object-meta.js";
import { maskPaths, takes, type MaskPaths } from "./update-mask.js";
import { updated } from "../../../util/extend.js";

const FIELDS = ["party", "is_local", "local_metadata.annotations", "local_metadata.resource_version", "identity_provider_id"] as const;
type Field = (typeof FIELDS)[number];

export type PartyUpdatePaths = MaskPaths<Field>;

/** The mask's paths, checked: INVALID_PARTY_DETAILS_UPDATE_REQUEST for none, an unknown one or a repeated one. */
export function partyUpdatePaths(party: string, paths: readonly string[]): PartyUpdatePaths {
  return maskPaths(FIELDS, paths, (reason) => errors.invalidPartyUpdate(party, reason));
}

/** What the request says, of the fields the mask may name. */
export interface PartyChanges {
  readonly isLocal: boolean;
  readonly annotations: Readonly<Record<string, string>>;
  /** The version the request was read at, "" when it does not say (no concurrency check). */
  readonly resourceVersion: string;
}

/** `party` as updated, in Canton's order of checks: `is_local`, then the version, then the merged size. */
export function updatedParty(party: PartyRecord, paths: PartyUpdatePaths, changes: PartyChanges): PartyRecord {
  if (takes(paths, "is_local", changes.isLocal, false) && changes.isLocal !== party.isLocal) {
    throw errors.invalidPartyUpdate(party.party, "Update request attempted to modify not-modifiable 'is_local' attribute");
  }
  // Concurrent change control is optional: only a request naming a version is checked.
  if (changes.resourceVersion !== "" && changes.resourceVersion !== party.localMetadata.resourceVersion) throw errors.concurrentPartyUpdate(party.party);
  const annotations = paths.has("local_metadata.annotations") ? mergedAnnotations(party.localMetadata.annotations, changes.annotations) : party.localMetadata.annotations;
  if (annotationsBytes(annotations) > MAX_ANNOTATIONS_BYTES) throw errors.partyAnnotationsTooLarge(party.party);
  return updated(party, { localMetadata: { annotations, resourceVersion: nextResourceVersion(party.localMetadata.resourceVersion) } });
}
