/**
 * What a user may do, from its rights: act as, read as, administer the participant.
 * Checks throw Canton's PERMISSION_DENIED naming what is missing.
 */
import { errors } from "../ledger/errors.js";
import { canActAs, type UserRecord } from "../ledger/records.js";

export function isParticipantAdmin(user: UserRecord): boolean {
  return user.rights.some((r) => r.kind === "ParticipantAdmin");
}

export { canActAs } from "../ledger/records.js";

const BEYOND_OWN_PARTIES: ReadonlySet<string> = new Set(["ParticipantAdmin", "IdentityProviderAdmin", "CanReadAsAnyParty", "CanExecuteAsAnyParty"]);

/** Whether a user's rights reach beyond its own parties: it administers the node, or reads or executes as any party. */
export function isPrivileged(user: UserRecord): boolean {
  return user.rights.some((r) => BEYOND_OWN_PARTIES.has(r.kind));
}

export function canReadAs(user: UserRecord, party: string): boolean {
  return user.rights.some(
    (r) => ((r.kind === "CanReadAs" || r.kind === "CanActAs") && r.party === party) || r.kind === "CanReadAsAnyParty",
  );
}

/** Executing an externally signed transaction: CanActAs, CanExecuteAs or CanExecuteAsAnyParty (Canton 3.4). */
export function canExecuteAs(user: UserRecord, party: string): boolean {
  return user.rights.some(
    (r) => ((r.kind === "CanActAs" || r.kind === "CanExecuteAs") && r.party === party) || r.kind === "CanExecuteAsAnyParty",
  );
}

export function requireExecuteAs(user: UserRecord, parties: readonly string[]): void {
  const missing = parties.filter((p) => !canExecuteAs(user, p));
  if (missing.length > 0) throw errors.permissionDenied(`user ${user.id} may not execute as ${missing.join(", ")}`);
}

export function requireAdmin(user: UserRecord): void {
  if (!isParticipantAdmin(user)) throw errors.permissionDenied("this call requires the ParticipantAdmin right");
}

export function requireActAs(user: UserRecord, parties: readonly string[]): void {
  const missing = parties.filter((p) => !canActAs(user, p));
  if (missing.length > 0) throw errors.permissionDenied(`user ${user.id} may not act as ${missing.join(", ")}`);
}

export function requireReadAs(user: UserRecord, parties: readonly string[]): void {
  const missing = parties.filter((p) => !canReadAs(user, p));
  if (missing.length > 0) throw errors.permissionDenied(`user ${user.id} may not read as ${missing.join(", ")}`);
}

/** Reading for any party (party-wildcard filters) needs CanReadAsAnyParty or admin. */
export function requireReadAny(user: UserRecord): void {
  if (!isParticipantAdmin(user) && !user.rights.some((r) => r.kind === "CanReadAsAnyParty")) {
    throw errors.permissionDenied("reading for any party requires CanReadAsAnyParty");
  }
}
