/**
 * Parsing of raw API input into trusted values, once, at the edge of the use cases: a bad value
 * is a `bad-request` naming the field.
 */
import { isPartyId, isUserId, type PartyId, type UserId } from "../../ledger/ids.js";
import { Numeric, NumericError } from "../../ledger/numeric.js";
import { walletErrors } from "../wallet-error.js";

export function parseUserId(field: string, raw: string): UserId {
  if (!isUserId(raw)) throw walletErrors.badRequest(`${field}: ${JSON.stringify(raw)} is not a valid user name (1-128 of a-z A-Z 0-9 @^$.!\`-#+'~_|:())`);
  return raw;
}

export function parsePartyId(field: string, raw: string): PartyId {
  if (!isPartyId(raw)) throw walletErrors.badRequest(`${field}: ${JSON.stringify(raw)} is not a party id (<hint>::<fingerprint>)`);
  return raw;
}

/** A CC amount: a decimal string, greater than zero, at most 10 decimals. */
export function parseAmount(field: string, raw: string): Numeric {
  let n: Numeric;
  try {
    n = Numeric.parse(raw);
  } catch (e) {
    if (e instanceof NumericError) throw walletErrors.badRequest(`${field}: ${e.message}`);
    throw e;
  }
  if (n.units <= 0n) throw walletErrors.badRequest(`${field}: must be greater than zero, got ${raw}`);
  return n;
}
