/**
 * Offboarding (`POST /v0/admin/users/offboard?username=`): uninstalls the wallet and deletes the
 * ledger user. The party and its contracts stay on the ledger (as in Splice).
 */
import type { OnboardingDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { parseUserId } from "../support/wallet-input.js";

export async function offboardUser(ctx: OnboardingDeps, username: string): Promise<void> {
  const name = parseUserId("username", username);
  if (name === ctx.validatorUser) throw walletErrors.badRequest(`the validator operator ${name} cannot be offboarded`);
  await ctx.local.userLocks.run(name, async () => {
    const known = await ctx.users.get(name);
    if (!known) throw walletErrors.notFound(`user ${name} is not onboarded`);
    await ctx.installer.uninstallWallet?.(known.party, name);
    await ctx.store.deleteUser(name);
    await ctx.users.remove(name);
  });
}
