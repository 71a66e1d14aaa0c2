/**
 * What the registry reads: the ledger (as the DSO sees it, like Splice's scan) and ledger time.
 * Every read is a query over active contracts; nothing is cached, so answers follow the ledger.
 */
import type { NetworkReader } from "../network/network-cache.js";
import { latestOpenRound } from "../network/network-state.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import { currentConfig } from "../templates/splice/amulet-rules.js";
import { ChoiceContextBuilder } from "./choice-context-builder.js";
import { CONTEXT_KEYS } from "../templates/splice/token-standard/choice-context.js";
import { notFound } from "./registry-error.js";

export interface RegistryDeps {
  readonly client: LedgerClient;
  readonly dso: string;
  /** The network's rules and rounds (cached by the node, read directly by tools). */
  readonly network: NetworkReader;
  /** Ledger time, microseconds since the epoch. */
  now(): bigint;
}

/**
 * A builder seeded with what every CC transfer needs: `AmuletRules` and the newest usable open
 * round, disclosed, on the synchronizer the rules name as active.
 */
export async function amuletRulesContext(deps: RegistryDeps, excludeDebugFields: boolean): Promise<ChoiceContextBuilder> {
  const state = await deps.network.read();
  let round;
  try {
    round = latestOpenRound(state, deps.now());
  } catch {
    throw notFound("No open usable OpenMiningRound found.");
  }
  const synchronizerId = currentConfig(state.rules.payload).decentralizedSynchronizer.activeSynchronizer;
  return new ChoiceContextBuilder(synchronizerId, excludeDebugFields)
    .addContract(CONTEXT_KEYS.amuletRules, state.rules.record)
    .addContract(CONTEXT_KEYS.openRound, round.record);
}
