/** `GET /v0/wallet/user-status`: whether the token's user is onboarded and its wallet installed. */
import type { OnboardingDeps } from "../wallet-deps.js";

export interface UserStatus {
  /** "" when not onboarded. */
  readonly party: string;
  readonly onboarded: boolean;
  readonly walletInstalled: boolean;
  readonly featured: boolean;
}

export async function getUserStatus(ctx: OnboardingDeps, userId: string): Promise<UserStatus> {
  const known = await ctx.users.get(userId);
  if (!known) return { party: "", onboarded: false, walletInstalled: false, featured: false };
  return { party: known.party, onboarded: true, walletInstalled: known.walletInstalled, featured: await ctx.featured.isFeatured(known.party) };
}
