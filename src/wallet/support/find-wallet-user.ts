/**
 * Who may use a wallet: the ledger user named by a verified token must exist, be active, be
 * onboarded here and still be able to act as the wallet's party (Splice's
 * ActAsPrimaryPartyAuthExtractor): rights revoked on the Ledger API end the wallet's use too.
 * Returns the wallet's party for the use cases.
 */
import type { PartyId } from "../../ledger/ids.js";
import { canActAs } from "../../ledger/records.js";
import type { OnboardingDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export interface WalletUser {
  readonly userId: string;
  readonly party: PartyId;
}

export async function findWalletUser(ctx: OnboardingDeps, userId: string): Promise<WalletUser> {
  const user = await ctx.store.user(userId);
  if (!user || user.isDeactivated) throw walletErrors.forbidden(`user ${userId} ${user ? "is deactivated" : "does not exist"}`);
  // The node's tokens are its default identity provider's (api/services/ledger/authenticate.ts).
  if (user.identityProviderId) throw walletErrors.forbidden(`user ${userId} is assigned to another identity provider`);
  const known = await ctx.users.get(userId);
  if (!known) throw walletErrors.forbidden(`user ${userId} is not onboarded to a wallet on this validator`);
  if (!canActAs(user, known.party)) throw walletErrors.forbidden(`User ${userId} may not act as party ${known.party}`);
  return { userId, party: known.party as PartyId };
}

/** The validator operator's user, or any active user with the ParticipantAdmin right. */
export async function isValidatorAdmin(ctx: OnboardingDeps, userId: string): Promise<boolean> {
  const user = await ctx.store.user(userId);
  if (!user || user.isDeactivated || user.identityProviderId) return false;
  return userId === ctx.validatorUser || user.rights.some((r) => r.kind === "ParticipantAdmin");
}
