/**
 * Checks shared by the tracked creates (transfer offers, traffic requests): the fields Daml would
 * refuse later with a less helpful message, and facts of the ledger (time, known parties) the
 * request depends on. Each refusal is a `bad-request` naming the field.
 */
import type { PartyId } from "../../ledger/ids.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { parsePartyId } from "./wallet-input.js";

/** Splice's templates ensure tracking ids and descriptions are shorter than 280 code points. */
export const MAX_TEXT = 280;

const codePoints = (s: string) => [...s].length;

export function parseTrackingId(raw: string): string {
  if (raw.length === 0) throw walletErrors.badRequest("tracking_id: must not be empty");
  if (codePoints(raw) >= MAX_TEXT) throw walletErrors.badRequest(`tracking_id: must be shorter than ${MAX_TEXT} characters`);
  return raw;
}

export function parseDescription(raw: string): string {
  if (codePoints(raw) >= MAX_TEXT) throw walletErrors.badRequest(`description: must be shorter than ${MAX_TEXT} characters`);
  return raw;
}

/** An expiry in unix microseconds that is still ahead of ledger time. */
export function parseExpiresAt(deps: WalletDeps, raw: bigint): bigint {
  const now = deps.clock.now();
  if (raw <= now) throw walletErrors.badRequest(`expires_at: ${raw} is not in the future (ledger time is ${now} microseconds since the epoch)`);
  return raw;
}

/** A well-formed party id that this participant knows. */
export async function parseKnownParty(deps: WalletDeps, field: string, raw: string): Promise<PartyId> {
  const party = parsePartyId(field, raw);
  if (!(await deps.store.party(party))) throw walletErrors.badRequest(`${field}: party ${party} does not exist`);
  return party;
}
