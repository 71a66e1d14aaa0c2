/**
 * UpdatePartyDetails' update mask, as Canton reads it (UpdateRequestsPaths.PartyDetailsPaths,
 * PartyRecordUpdateMapper): a path names a field of `PartyDetails`, or the `local_metadata`
 * prefix. Only the annotations change, merged as a user's are. `party` names the party,
 * `local_metadata.resource_version` guards against a concurrent update, `identity_provider_id`
 * may be named and changes nothing (UpdatePartyIdentityProviderId moves a party), and `is_local`
 * may be named only with the value the party has: it is not modifiable.
 */
import { errors } from "../../../ledger/errors.js";
import type { PartyRecord } from "../../../ledger/records.js";
import { annotationsBytes, maskPaths, MAX_ANNOTATIONS_BYTES, mergedAnnotations, nextResourceVersion, takes, type MaskPaths } from "./update-mask.js";

const FIELDS = ["party", "is_local", "local_metadata.annotations", "local_metadata.resource_version", "identity_provider_id"] as const;
type Field = (typeof FIELDS)[number];

export type PartyUpdatePaths = MaskPaths<Field>;

/** The mask's paths, checked: INVALID_PARTY_DETAILS_UPDATE_REQUEST for none, an unknown one or a repeated one. */
export function partyUpdatePaths(party: string, paths: readonly string[]): PartyUpdatePaths {
  return maskPaths(FIELDS, paths, (reason) => errors.invalidPartyUpdate(party, reason));
}

/** The request's fields the mask may name. */
export interface PartyChanges {
  readonly isLocal: boolean;
  readonly annotations: Readonly<Record<string, string>>;
}

/** `party` with its annotations changed as named, and a new resource version when they changed. */
export function updatedParty(party: PartyRecord, paths: PartyUpdatePaths, changes: PartyChanges): PartyRecord {
  if (takes(paths, "is_local", changes.isLocal, false) && changes.isLocal !== party.isLocal) {
    throw errors.invalidPartyUpdate(party.party, "Update request attempted to modify not-modifiable 'is_local' attribute");
  }
  if (!paths.has("local_metadata.annotations") || Object.keys(changes.annotations).length === 0) return party;
  const annotations = mergedAnnotations(party.localMetadata.annotations, changes.annotations);
  if (annotationsBytes(annotations) > MAX_ANNOTATIONS_BYTES) throw errors.partyAnnotationsTooLarge(party.party);
  return { ...party, localMetadata: { annotations, resourceVersion: nextResourceVersion(party.localMetadata.resourceVersion) } };
}
