/**
 * The simulated DSO's own automation steps and the validator's liveness report, in the order the
 * trigger loop runs them: the round lifecycle, then the expiries and the liveness report, which
 * come due with time alone.
 */
import type { NetworkConfig } from "../config/network.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import { automationStep, type AutomationStep, type Watched } from "../automation/automation-step.js";
import type { NetworkState } from "../network/network-state.js";
import { AmuletRules } from "../templates/splice/amulet-rules.js";
import { ClosedMiningRound, IssuingMiningRound, OpenMiningRound, SummarizingMiningRound } from "../templates/splice/round.js";
import { expireDust, expirePreapprovals } from "./expiries.js";
import { advanceRounds, closeIssuingRounds, retireClosedRounds, startIssuing } from "./round-lifecycle.js";
import { recordLiveness } from "./validator-liveness.js";

export function dsoSteps(client: LedgerClient, network: NetworkConfig, validator: string): AutomationStep[] {
  const rounds: readonly Watched[] = [OpenMiningRound, SummarizingMiningRound, IssuingMiningRound, ClosedMiningRound];
  return [
    automationStep("advance rounds", { watches: [AmuletRules, ...rounds], timed: true }, (state, now) => advanceRounds(client, network, state, now)),
    automationStep("start issuing", { watches: rounds, timed: true }, (state) => startIssuing(client, state)),
    automationStep("close issuing rounds", { watches: rounds, timed: true }, (state, now) => closeIssuingRounds(client, state, now)),
    automationStep("retire closed rounds", { watches: rounds, timed: true }, (state) => retireClosedRounds(client, state)),
    // Expiries and the liveness report come due with time alone.
    automationStep("expire preapprovals", { timed: true }, (state, now) => expirePreapprovals(client, state, now)),
    automationStep("expire dust", { timed: true }, dustOncePerRound(client)),
    automationStep("record liveness", { timed: true }, (state, now) => recordLiveness(client, state, validator, now)),
  ];
}

/** Dust expiry runs once per new open round (the step keeps the last round it ran for). */
function dustOncePerRound(client: LedgerClient): (state: NetworkState, now: bigint) => Promise<boolean> {
  let lastDustRound = -1n;
  return async (state, now) => {
    const open = state.openRounds.filter((r) => r.payload.opensAt <= now);
    const n = open[open.length - 1]?.payload.round.number ?? -1n;
    if (n === lastDustRound) return false;
    lastDustRound = n;
    return expireDust(client, state, now);
  };
}
