/**
 * `GET /v0/admin/external-party/balance?party_id=`: a party's CC holdings summed as Splice's
 * `HoldingsSummary` does: initial amounts, holding fees accrued by the earliest open round, and
 * the available amount (unlocked initial amounts less their fees).
 *
 * Splice serves it for the external parties its validator has a wallet for; every party this
 * participant knows is served here (an unknown party is 404).
 */
import { Numeric } from "../../ledger/numeric.js";
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
  // The party's own holdings of the network DSO's CC, as every wallet balance counts them.
  const held = await deps.holdings.of(party);
  // Read-side sums: total over any holdings, even when they together exceed Numeric 10.
  const sum = (xs: Numeric[]) => Numeric.total(xs);
  const unlockedAmounts = held.amulets.map((a) => a.payload.amount);
  const lockedAmounts = held.locked.map((l) => l.payload.amulet.amount);
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
