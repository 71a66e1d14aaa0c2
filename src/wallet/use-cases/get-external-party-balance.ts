/**
 * `GET /v0/admin/external-party/balance?party_id=`: a party's CC holdings summed as Splice's
 * `HoldingsSummary` does: initial amounts, holding fees accrued by the earliest open round, and
 * the available amount (unlocked initial amounts less their fees).
 *
 * Splice serves it for the external parties its validator has a wallet for; every party this
 * participant knows is served here (an unknown party is 404).
 */
import { Numeric } from "../../ledger/numeric.js";
import { Amulet, LockedAmulet } from "../../templates/splice/amulet.js";
import { holdingFee } from "../../templates/splice/fees.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { parsePartyId } from "../support/wallet-input.js";

export interface HoldingsSummary {
  readonly party: string;
  readonly totalUnlockedCoin: Numeric;
  readonly totalLockedCoin: Numeric;
  readonly totalCoinHoldings: Numeric;
  readonly accumulatedHoldingFeesUnlocked: Numeric;
  readonly accumulatedHoldingFeesLocked: Numeric;
  readonly accumulatedHoldingFeesTotal: Numeric;
  readonly totalAvailableCoin: Numeric;
  readonly computedAsOfRound: bigint;
}

export async function getExternalPartyBalance(deps: WalletDeps, partyRaw: string): Promise<HoldingsSummary> {
  const party = parsePartyId("party_id", partyRaw);
  if (!(await deps.store.party(party))) throw walletErrors.notFound(`No wallet for external party ${party}`);
  const earliest = (await deps.network.read()).openRounds[0];
  if (!earliest) throw walletErrors.notFound("No open mining round found");
  const round = earliest.payload.round.number;
  const [amulets, locked] = await Promise.all([deps.client.active(Amulet, [party]), deps.client.active(LockedAmulet, [party])]);
  // Read-side sums: total over any holdings, even when they together exceed Numeric 10.
  const sum = (xs: Numeric[]) => Numeric.total(xs);
  // The network DSO's holdings only: an Amulet anyone signs as its own `dso` is not CC.
  const unlockedAmounts = amulets.filter((a) => a.payload.owner === party && a.payload.dso === deps.dso).map((a) => a.payload.amount);
  const lockedAmounts = locked.filter((l) => l.payload.amulet.owner === party && l.payload.amulet.dso === deps.dso).map((l) => l.payload.amulet.amount);
  const totalUnlockedCoin = sum(unlockedAmounts.map((a) => a.initialAmount));
  const totalLockedCoin = sum(lockedAmounts.map((a) => a.initialAmount));
  const accumulatedHoldingFeesUnlocked = sum(unlockedAmounts.map((a) => holdingFee(a, round)));
  const accumulatedHoldingFeesLocked = sum(lockedAmounts.map((a) => holdingFee(a, round)));
  return {
    party,
    totalUnlockedCoin,
    totalLockedCoin,
    totalCoinHoldings: totalUnlockedCoin.plus(totalLockedCoin),
    accumulatedHoldingFeesUnlocked,
    accumulatedHoldingFeesLocked,
    accumulatedHoldingFeesTotal: accumulatedHoldingFeesUnlocked.plus(accumulatedHoldingFeesLocked),
    totalAvailableCoin: totalUnlockedCoin.minus(accumulatedHoldingFeesUnlocked),
    computedAsOfRound: round,
  };
}
