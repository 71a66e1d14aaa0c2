/**
 * External party ids: `hint::fingerprint`, the hint being Canton's UID identifier (characters
 * `[a-zA-Z0-9:_\- ]`, no `::`, at most 185 so the whole UID stays within 255).
 */
import type { Fingerprint } from "./fingerprint.js";

export const MAX_PARTY_HINT_LENGTH = 185;

/** Why `hint` cannot name an external party, or `undefined` if it can. */
export function partyHintProblem(hint: string): string | undefined {
  if (hint.length === 0) return "the party hint is empty";
  if (hint.length > MAX_PARTY_HINT_LENGTH) return `the party hint is longer than ${MAX_PARTY_HINT_LENGTH} characters (${hint.length})`;
  if (!/^[a-zA-Z0-9:_\- ]+$/.test(hint)) return "the party hint contains characters other than a-z, A-Z, 0-9, ':', '_', '-' and ' '";
  if (hint.includes("::")) return "the party hint contains the delimiter '::'";
  return undefined;
}

export function externalPartyId(hint: string, namespace: Fingerprint): string {
  return `${hint}::${namespace}`;
}
