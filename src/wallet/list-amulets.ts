/** `GET /v0/wallet/amulets` (and `/coins`): each holding with its fee and value at the open round. */
import { latestOpenRoundNumber } from "../dso/network-state.js";
import type { ContractRecord } from "../ledger/records.js";
import { Amulet, LockedAmulet } from "../templates/splice/amulet.js";
import { positionOf, type Position } from "./holdings.js";
import type { WalletDeps } from "./wallet-deps.js";

export interface AmuletList {
  readonly amulets: readonly Position<ContractRecord>[];
  readonly lockedAmulets: readonly Position<ContractRecord>[];
}

export async function listAmulets(deps: WalletDeps, party: string): Promise<AmuletList> {
  const round = await latestOpenRoundNumber(deps.client, deps.dso, deps.clock.now());
  const [amulets, locked] = await Promise.all([deps.client.active(Amulet, [party]), deps.client.active(LockedAmulet, [party])]);
  return {
    amulets: amulets.filter((a) => a.payload.owner === party).map((a) => positionOf(a.record, a.payload.amount, round)),
    lockedAmulets: locked.filter((l) => l.payload.amulet.owner === party).map((l) => positionOf(l.record, l.payload.amulet.amount, round)),
  };
}
