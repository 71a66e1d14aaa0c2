/**
 * The parties of every wallet onboarded on this validator (the operator's included): whom the
 * wallet automation acts for. Read from the onboarded-user records on each call, so a user
 * onboarded a moment ago is served on the next automation pass.
 */
import type { WalletContext } from "./wallet-context.js";

const PAGE = 1000;

export async function listWalletParties(ctx: Pick<WalletContext, "store" | "users">): Promise<string[]> {
  const parties = new Set<string>();
  for (let token = ""; ; ) {
    const page = await ctx.store.users(token, PAGE);
    for (const u of page) {
      const record = await ctx.users.get(u.id);
      if (record) parties.add(record.party);
    }
    if (page.length < PAGE) return [...parties];
    token = page[page.length - 1].id;
  }
}
