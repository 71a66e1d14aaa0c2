/** Brings the simulated network up: genesis (first start only) and the DSO's automation. */
import type { NetworkConfig } from "../config/network.js";
import type { Clock } from "../ledger/clock.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import { bootstrapNetwork, type GenesisContract, type NetworkParties } from "./bootstrap-network.js";
import type { AutomationStep } from "../automation/automation-step.js";
import { DsoAutomation } from "../automation/trigger-loop.js";

export interface NetworkOptions {
  readonly client: LedgerClient;
  readonly clock: Clock;
  readonly network: NetworkConfig;
  readonly synchronizerId: string;
  readonly validator: string;
  readonly genesis?: readonly GenesisContract[];
  readonly extraSteps?: readonly AutomationStep[];
  readonly pollMs?: number;
  readonly onError?: (error: unknown) => void;
}

export interface RunningNetwork {
  readonly parties: NetworkParties;
  readonly automation: DsoAutomation;
}

export async function startNetwork(options: NetworkOptions): Promise<RunningNetwork> {
  const parties = await bootstrapNetwork(options.client, options.network, options.synchronizerId, options.validator, options.genesis);
  const automation = new DsoAutomation({
    client: options.client,
    clock: options.clock,
    network: options.network,
    dso: parties.dso,
    validator: parties.validator,
    extraSteps: options.extraSteps,
    pollMs: options.pollMs,
    onError: options.onError,
  });
  automation.start();
  await automation.settled();
  return { parties, automation };
}
