/** Granting and revoking user rights, with the results the store port promises (as the SQLite adapter computes them). */
import type { UserRecord, UserRight } from "../ledger/records.js";
import { rightKey } from "../ledger/records.js";
import { updated } from "../util/extend.js";

export interface RightsChange {
  /** The rights held afterwards. */
  readonly next: UserRight[];
  /** The rights actually granted or revoked. */
  readonly changed: UserRight[];
}

export function grant(held: readonly UserRight[], rights: readonly UserRight[]): RightsChange {
  const have = new Set(held.map(rightKey));
  const added = distinct(rights).filter((r) => !have.has(rightKey(r)));
  return { next: [...held, ...added], changed: added };
}

export function revoke(held: readonly UserRight[], rights: readonly UserRight[]): RightsChange {
  const drop = new Set(rights.map(rightKey));
  return { next: held.filter((r) => !drop.has(rightKey(r))), changed: held.filter((r) => drop.has(rightKey(r))) };
}

function distinct(rights: readonly UserRight[]): UserRight[] {
  const seen = new Map<string, UserRight>();
  for (const r of rights) seen.set(rightKey(r), r);
  return [...seen.values()];
}

/**
 * Grants or revokes through a store's `updateUser` (one read-modify-write): the rights actually
 * changed, or undefined for an unknown user. A user whose rights do not change is not written.
 */
export async function changeRights(
  updateUser: (id: string, change: (user: UserRecord) => UserRecord) => Promise<UserRecord | undefined>,
  id: string,
  change: (held: readonly UserRight[]) => RightsChange,
): Promise<UserRight[] | undefined> {
  let changed: UserRight[] = [];
  const user = await updateUser(id, (user) => {
    const update = change(user.rights);
    changed = update.changed;
    return changed.length > 0 ? updated(user, { rights: update.next }) : user;
  });
  return user && changed;
}
