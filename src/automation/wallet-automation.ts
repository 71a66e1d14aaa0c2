/**
 * The validator app's wallet triggers, run as steps of the node's automation loop (next to the
 * simulated DSO), each acting only through ledger commands.
 */
import type { AutomationConfig } from "../config/automation.js";
import type { AutomationStep } from "../dso/dso-automation.js";
import type { WalletDeps } from "../wallet/wallet-deps.js";
import { collectRewards, mergeHoldings } from "./collect-rewards.js";
import { completeAcceptedOffers } from "./complete-accepted-offers.js";
import { completeBuyTrafficRequests } from "./complete-buy-traffic-requests.js";
import { expireTransferOffers } from "./expire-transfer-offers.js";
import { renewPreapprovals } from "./renew-preapprovals.js";
import type { WalletParties } from "./wallet-parties.js";

export function walletAutomationSteps(deps: WalletDeps, parties: WalletParties, config: AutomationConfig, extra: readonly AutomationStep[] = []): AutomationStep[] {
  // Offers and traffic requests are answered first and always (Splice runs these triggers unconditionally).
  const expireOffers = expireTransferOffers(deps, parties);
  const steps: AutomationStep[] = [
    (_state, now) => completeAcceptedOffers(deps, parties, now),
    (state, now) => completeBuyTrafficRequests(deps, parties, state, now),
    (_state, now) => expireOffers(now),
  ];
  if (config.renewPreapprovals) steps.push((state, now) => renewPreapprovals(deps, state, now));
  if (config.collectRewards) steps.push((state) => collectRewards(deps, parties, state));
  if (config.mergeHoldings) steps.push((state) => mergeHoldings(deps, parties, state, config.mergeThreshold));
  return [...steps, ...extra];
}
