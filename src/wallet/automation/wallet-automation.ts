/**
 * The validator app's wallet triggers, run as steps of the node's automation loop (next to the
 * simulated DSO), each acting only through ledger commands and each run only when something it
 * looks at changed (see src/automation/automation-step.ts).
 */
import type { AutomationConfig } from "../../config/automation.js";
import { automationStep, type AutomationStep, type Scope } from "../../automation/automation-step.js";
import { Amulet } from "../../templates/splice/amulet.js";
import { TransferCommand, TransferCommandCounter, type TransferCommandPayload } from "../../templates/splice/external-party-amulet-rules.js";
import { MergeDelegation } from "../../templates/splice/merge-delegation.js";
import { IssuingMiningRound } from "../../templates/splice/round.js";
import { BuyTrafficRequest } from "../../templates/splice/wallet/buy-traffic-request.js";
import { AmuletTransferInstruction } from "../../templates/splice/amulet-transfer-instruction.js";
import { TransferPreapproval } from "../../templates/splice/transfer-preapproval.js";
import { AcceptedTransferOffer, TransferOffer } from "../../templates/splice/wallet/transfer-offer.js";
import { TransferCommandSender } from "../../network/transfer-command-sender.js";
import { decodedPayload } from "../../ledger/decoded-payloads.js";
import type { ContractId } from "../../ledger/ids.js";
import { TemplateChanges } from "../../ledger/template-changes.js";
import type { WalletDeps } from "../wallet-deps.js";
import { AUTO_ACCEPT_TRIGGER, autoAcceptTransfers } from "./auto-accept-transfers.js";
import { silentLog, type AutomationLog } from "./automation-log.js";
import { collectRewards, mergeHoldings } from "./collect-rewards.js";
import { MINT_TRIGGER, mintForDelegations } from "./mint-for-delegations.js";
import { MintingDelegation } from "../../templates/splice/wallet/minting-delegation.js";
import { completeAcceptedOffers } from "./complete-accepted-offers.js";
import { completeBuyTrafficRequests } from "./complete-buy-traffic-requests.js";
import { expireTransferOffers } from "./expire-transfer-offers.js";
import { delegationsToOperator, MERGE_DELEGATION_TRIGGER, mergeDelegatedHoldings } from "./merge-delegations.js";
import { renewPreapprovals } from "./renew-preapprovals.js";
import type { WalletParties } from "./wallet-parties.js";
import { SWEEP_TRIGGER, sweepWallets } from "./wallet-sweep.js";
import { TOPUP_TRIGGER, topUpTraffic, type TrafficBalance } from "./top-up-traffic.js";
import { MemberTraffic } from "../../templates/splice/decentralized-synchronizer.js";

export function walletAutomationSteps(
  deps: WalletDeps,
  parties: WalletParties,
  config: AutomationConfig,
  log: AutomationLog = silentLog,
  traffic?: TrafficBalance,
): AutomationStep[] {
  // Offers and traffic requests are answered first and always (Splice runs these triggers
  // unconditionally); they are timed too, because what is not answered in time expires.
  const steps: AutomationStep[] = [
    automationStep("complete accepted offers", { watches: [AcceptedTransferOffer], timed: true }, (_state, now) => completeAcceptedOffers(deps, parties, now)),
    automationStep("complete traffic requests", { watches: [BuyTrafficRequest], timed: true }, (state, now) => completeBuyTrafficRequests(deps, parties, state, now)),
    automationStep("expire transfer offers", { timed: true }, (_state, now) => expireTransferOffers(deps, parties, now)),
  ];
  // The TransferCommands the operator's external parties delegate to it (Splice's TransferCommandSendTrigger).
  steps.push(sendTransferCommands(deps));
  steps.push(...transferSteps(deps, parties, config, log));
  if (config.renewPreapprovals) steps.push(automationStep("renew preapprovals", { timed: true }, (state, now) => renewPreapprovals(deps, state, now)));
  // Coupons are minted once their round issues, so a new issuing round is what gives work.
  if (config.collectRewards) steps.push(automationStep("collect rewards", { watches: [IssuingMiningRound] }, (state) => collectRewards(deps, parties, state)));
  // Delegates mint their beneficiaries' coupons of issuing rounds and merge past 2× the limit (A.8):
  // every beneficiary's when a round issues, a beneficiary's own when its holdings or delegations change.
  if (config.collectRewards) {
    steps.push(automationStep(MINT_TRIGGER, { watches: [IssuingMiningRound] }, (state, now) => mintForDelegations(deps, parties, state, now, "all")));
    steps.push(automationStep(MINT_TRIGGER, { watches: [MintingDelegation, Amulet] }, (state, now, scope) => mintForDelegations(deps, parties, state, now, scope)));
  }
  if (config.mergeHoldings) steps.push(...mergeSteps(deps, parties, config.mergeThreshold, log));
  steps.push(...topupSteps(deps, config, log, traffic));
  return steps;
}

/**
 * Splice's TransferCommandSendTrigger: the commands of senders that are external parties onboarded
 * here, taken from the transfer-command index (anyone may create commands naming the operator,
 * and 17,000 of one user, read from the store on every tick, kept 80 % of a core busy). A tick
 * looks only after a command or counter changed, or when a failed command may be tried again.
 */
function sendTransferCommands(deps: WalletDeps): AutomationStep {
  // A party's hosting never changes once added (an update changes only its annotations): whether a
  // known sender is external is asked of the store once.
  const external = new Map<string, boolean>();
  const open = async () => {
    const entries = await deps.transferCommands.openCommands();
    for (const sender of new Set(entries.map((e) => e.sender))) {
      if (external.has(sender)) continue;
      const party = await deps.store.party(sender);
      if (party) external.set(sender, party.external !== undefined);
    }
    return entries.filter((e) => external.get(e.sender)).map((e) => ({ contractId: e.record.contractId as ContractId, payload: decodedPayload(TransferCommand.payload, e.record) as TransferCommandPayload, record: e.record }));
  };
  const sender = new TransferCommandSender(deps.client, deps.validator, open);
  const changes = new TemplateChanges(deps.client.ledger.feed, [TransferCommand, TransferCommandCounter]);
  return automationStep("send transfer commands", { watches: [TransferCommand, TransferCommandCounter], timed: true }, async (state, now) => {
    const retry = sender.nextRetry;
    return changes.whenChanged(retry !== undefined && now >= retry, () => sender.step(state, now));
  });
}

/** Traffic top-ups, when configured with a throughput and the participant's traffic is metered. */
function topupSteps(deps: WalletDeps, config: AutomationConfig, log: AutomationLog, traffic: TrafficBalance | undefined): AutomationStep[] {
  const topup = config.topup;
  if (!topup.enabled) return [];
  if (topup.targetThroughput <= 0 || !traffic) {
    log.info({ trigger: TOPUP_TRIGGER }, "traffic top-ups not started: targetThroughput is 0 or traffic is not metered");
    return [];
  }
  const ctx = { deps, config: topup, pollMs: config.pollMs, traffic, log };
  // Timed: consumption and the interval both move with time; a purchase is a MemberTraffic.
  return [automationStep(TOPUP_TRIGGER, { watches: [MemberTraffic], timed: true }, (state, now) => topUpTraffic(ctx, state, now))];
}

/**
 * Holding merges: parties that delegated merging to the operator (MergeDelegation, signed at
 * onboarding) are merged by the operator in batches; every other wallet party (the operator
 * itself, users onboarded without a delegation or who withdrew it) merges its own.
 */
function mergeSteps(deps: WalletDeps, parties: WalletParties, threshold: number, log: AutomationLog): AutomationStep[] {
  const delegated = async (scope: Scope) => new Set((await delegationsToOperator(deps, scope)).keys());
  const ctx = { deps, threshold, log };
  // Only the owners whose holdings changed can have crossed the merge threshold; a new delegation
  // can make a party's holdings the operator's to merge.
  return [
    automationStep("merge holdings", { watches: [Amulet] }, (state, _now, scope) => mergeHoldings(deps, parties, state, scope, threshold, delegated)),
    automationStep(MERGE_DELEGATION_TRIGGER, { watches: [Amulet, MergeDelegation] }, (_state, _now, scope) => mergeDelegatedHoldings(ctx, scope)),
  ];
}

/** The operator's configured auto-accepts and sweeps, only when configured (they watch busy templates). */
function transferSteps(deps: WalletDeps, parties: WalletParties, config: AutomationConfig, log: AutomationLog): AutomationStep[] {
  const steps: AutomationStep[] = [];
  if (Object.keys(config.autoAcceptTransfers).length > 0) {
    const ctx = { deps, parties, autoAccept: config.autoAcceptTransfers, log };
    steps.push(automationStep(AUTO_ACCEPT_TRIGGER, { watches: [TransferOffer, AmuletTransferInstruction] }, (_state, now, scope) => autoAcceptTransfers(ctx, now, scope)));
  }
  if (Object.keys(config.walletSweep).length > 0) {
    const ctx = { deps, parties, sweeps: config.walletSweep, log };
    // The sender's holdings and open offers decide, and so does the receiver getting a preapproval.
    const watches = [Amulet, TransferOffer, AcceptedTransferOffer, TransferPreapproval];
    steps.push(automationStep(SWEEP_TRIGGER, { watches }, (state, now, scope) => sweepWallets(ctx, state, now, scope)));
  }
  return steps;
}
