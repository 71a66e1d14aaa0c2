/** `GET /v0/admin/users`: the names of the users onboarded to a wallet on this validator. */
import type { WalletContext } from "../wallet-context.js";

export async function listUsers(ctx: WalletContext): Promise<string[]> {
  return (await ctx.users.list()).map((u) => u.userId);
}
