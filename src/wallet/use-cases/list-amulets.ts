/** `GET /v0/wallet/amulets` (and `/coins`): each holding with its fee and value at the open round, in creation order. */
import { latestOpenRoundNumber } from "../../network/network-state.js";
import type { ContractRecord } from "../../ledger/records.js";
import { positionOf, type Position } from "../support/holdings.js";
import type { WalletDeps } from "../wallet-deps.js";

export interface AmuletList {
  readonly amulets: readonly Position<ContractRecord>[];
  readonly lockedAmulets: readonly Position<ContractRecord>[];
}

export async function listAmulets(deps: WalletDeps, party: string): Promise<AmuletList> {
  const [round, held] = await Promise.all([latestOpenRoundNumber(deps.client, deps.dso, deps.clock.now()), deps.holdings.of(party)]);
  return {
    amulets: held.amulets.map((a) => positionOf(a.record, a.payload.amount, round)),
    lockedAmulets: held.locked.map((l) => positionOf(l.record, l.payload.amulet.amount, round)),
  };
}
