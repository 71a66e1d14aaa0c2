/**
 * `POST /v0/register`: self-onboarding; the ledger user is the token's subject. It grants nothing
 * the user did not have: a user without a primary party gets a fresh one (and the rights on it);
 * one with a primary party registers with it only if it can already act as it. A primary party is
 * a label in Canton, and onboarding a wallet for a party the user can merely read (or was named
 * for by an administrator) would hand it the party's CC; that is the operator's call
 * (`POST /v0/admin/users`).
 */
import type { PartyId } from "../../ledger/ids.js";
import { onboardUser } from "./onboard-user.js";
import type { OnboardingDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export async function registerUser(ctx: OnboardingDeps, tokenUser: string): Promise<{ party: PartyId }> {
  const user = await ctx.store.user(tokenUser);
  // The party onboarding would use: a wallet this user had (left behind when the ledger user was
  // deleted or its rights revoked), else its primary party; with neither, a fresh one.
  const party = (await ctx.users.get(tokenUser))?.party ?? user?.primaryParty;
  if (party && !user?.rights.some((r) => r.kind === "CanActAs" && r.party === party)) {
    throw walletErrors.forbidden(
      `user ${tokenUser} cannot act as party ${party}: self-registration grants no rights; the validator operator can onboard it (POST /v0/admin/users)`,
    );
  }
  return onboardUser(ctx, { name: tokenUser });
}
