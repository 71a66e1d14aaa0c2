/** `POST /v0/wallet/tap` (DevNet): mint CC to the party through `AmuletRules_DevNet_Tap`. */
import { latestOpenRound } from "../../network/network-state.js";
import { Numeric } from "../../ledger/numeric.js";
import { AmuletRules, AmuletRules_DevNet_Tap, DEVNET_TAP_LIMIT } from "../../templates/splice/amulet-rules.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export async function tap(deps: WalletDeps, party: string, amount: Numeric, commandId?: string): Promise<string> {
  if (!amount.isPositive()) throw walletErrors.badRequest("amount must be positive");
  // The choice checks its cap too; refused here first, with Splice's 400.
  if (amount.gt(DEVNET_TAP_LIMIT)) throw walletErrors.badRequest(`amount must be at most ${DEVNET_TAP_LIMIT} CC per tap on DevNet`);
  const state = await deps.network.read();
  if (!state.rules.payload.isDevNet) throw walletErrors.badRequest("tap is only available on DevNet");
  const round = latestOpenRound(state, deps.clock.now());
  const { result } = await deps.client.exercise(
    [party],
    AmuletRules,
    state.rules.contractId,
    AmuletRules_DevNet_Tap,
    { receiver: party, amount, openRound: round.contractId },
    { disclosed: [state.rules.record, round.record], ...(commandId ? { commandId } : {}) },
  );
  return result.amuletSum.amulet;
}
