/** `GET /v0/admin/users`: the names of the users onboarded to a wallet on this validator. */
import type { OnboardingDeps } from "../wallet-deps.js";

export async function listUsers(ctx: OnboardingDeps): Promise<string[]> {
  return (await ctx.users.list()).map((u) => u.userId);
}
