/** Brings the simulated network up: genesis (first start only) and the trigger loop with the DSO's steps first. */
import type { NetworkConfig } from "../config/network.js";
import type { Clock } from "../ledger/clock.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import type { AutomationStep } from "../automation/automation-step.js";
import { TriggerLoop, type TriggerLoopOptions } from "../automation/trigger-loop.js";
import type { NetworkReader } from "../network/network-cache.js";
import { readNetwork } from "../network/network-state.js";
import { OpenMiningRound } from "../templates/splice/round.js";
import { bootstrapNetwork, type GenesisContract, type NetworkParties } from "./bootstrap-network.js";
import { dsoSteps } from "./dso-steps.js";

export interface NetworkOptions {
  readonly client: LedgerClient;
  readonly clock: Clock;
  readonly network: NetworkConfig;
  readonly synchronizerId: string;
  readonly validator: string;
  readonly genesis?: readonly GenesisContract[];
  readonly extraSteps?: readonly AutomationStep[];
  readonly pollMs?: number;
  readonly onError?: TriggerLoopOptions["onError"];
  readonly onStepRun?: TriggerLoopOptions["onStepRun"];
  /** Where each pass reads the network (the node's cache); by default the store, every pass. */
  readonly networkReader?: NetworkReader;
  readonly paused?: readonly string[];
}

export interface RunningNetwork {
  readonly parties: NetworkParties;
  readonly automation: TriggerLoop;
}

export async function startNetwork(options: NetworkOptions): Promise<RunningNetwork> {
  const { client } = options;
  const parties = await bootstrapNetwork(client, options.network, options.synchronizerId, options.validator, options.genesis);
  const automation = new TriggerLoop({
    feed: client.ledger.feed,
    clock: options.clock,
    readState: options.networkReader ? () => options.networkReader!.read() : () => readNetwork(client, parties.dso),
    steps: [...dsoSteps(client, options.network, parties.validator), ...(options.extraSteps ?? [])],
    heartbeat: OpenMiningRound,
    pollMs: options.pollMs,
    onError: options.onError,
    onStepRun: options.onStepRun,
    paused: options.paused,
  });
  automation.start();
  await automation.settled();
  return { parties, automation };
}
