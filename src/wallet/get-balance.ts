/** `GET /v0/wallet/balance`: the party's holdings valued at the latest open round. */
import { latestOpenRoundNumber } from "../dso/network-state.js";
import { Amulet, LockedAmulet } from "../templates/splice/amulet.js";
import { balanceOf, type Balance } from "./holdings.js";
import type { WalletDeps } from "./wallet-deps.js";

export async function getBalance(deps: WalletDeps, party: string): Promise<Balance> {
  const round = await latestOpenRoundNumber(deps.client, deps.dso, deps.clock.now());
  const [amulets, locked] = await Promise.all([deps.client.active(Amulet, [party]), deps.client.active(LockedAmulet, [party])]);
  return balanceOf(
    amulets.filter((a) => a.payload.owner === party).map((a) => a.payload),
    locked.filter((l) => l.payload.amulet.owner === party).map((l) => l.payload),
    round,
  );
}
