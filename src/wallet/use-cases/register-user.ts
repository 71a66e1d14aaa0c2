/**
 * `POST /v0/register`: self-onboarding; the ledger user is the token's subject. It grants nothing
 * the user did not have: a user without a primary party gets a fresh one (and the rights on it);
 * one with a party (its primary party, or a wallet left behind when the ledger user was deleted or
 * its rights revoked) registers with it only if it can already act as it. A primary party is a
 * label in Canton, and onboarding a wallet for a party the user can merely read (or was named for
 * by an administrator) would hand it the party's CC; that is the operator's call
 * (`POST /v0/admin/users`).
 */
import type { PartyId } from "../../ledger/ids.js";
import { onboardUser } from "./onboard-user.js";
import type { OnboardingDeps } from "../wallet-deps.js";

export function registerUser(ctx: OnboardingDeps, tokenUser: string): Promise<{ party: PartyId }> {
  return onboardUser(ctx, { name: tokenUser, selfService: true });
}
