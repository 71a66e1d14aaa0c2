/** `GET /v0/wallet/balance`: the party's holdings valued at the latest open round. */
import { latestOpenRoundNumber } from "../../network/network-state.js";
import { balanceOf, type Balance } from "../support/holdings.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function getBalance(deps: WalletDeps, party: string): Promise<Balance> {
  const [round, held] = await Promise.all([latestOpenRoundNumber(deps.client, deps.dso, deps.clock.now()), deps.holdings.of(party)]);
  return balanceOf(
    held.amulets.map((a) => a.payload),
    held.locked.map((l) => l.payload),
    round,
  );
}
