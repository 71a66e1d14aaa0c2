/**
 * Genesis of the simulated network, idempotent on every start: the DSO party, `AmuletRules`, the
 * first three mining rounds, and the validator operator's license and featured-app right. All of
 * it is made with ledger commands, so it appears in `/v2` updates like anything else. The rules
 * and the first rounds are one transaction: a node stopped between the two (as a kill -9 after
 * the rules' commit once left one) would have rules that no round ever opens under.
 */
import type { NetworkConfig } from "../config/network.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import type { Template } from "../ledger/template.js";
import { AmuletRules, AmuletRules_Bootstrap_Rounds, type AmuletRulesPayload } from "../templates/splice/amulet-rules.js";
import { FeaturedAppRight } from "../templates/splice/amulet.js";
import { ClosedMiningRound, IssuingMiningRound, OpenMiningRound, SummarizingMiningRound } from "../templates/splice/round.js";
import { ValidatorLicense } from "../templates/splice/validator-license.js";
import { amuletConfigOf } from "./amulet-config-of.js";

export const DSO_PARTY_HINT = "DSO";

/** Contracts the DSO creates at genesis besides `AmuletRules` (e.g. `ExternalPartyAmuletRules`). */
export interface GenesisContract {
  readonly template: Template<unknown>;
  payload(dso: string): unknown;
}

export interface NetworkParties {
  readonly dso: string;
  readonly validator: string;
}

export async function bootstrapNetwork(
  client: LedgerClient,
  network: NetworkConfig,
  synchronizerId: string,
  validator: string,
  genesis: readonly GenesisContract[] = [],
): Promise<NetworkParties> {
  const dso = await client.allocateParty(DSO_PARTY_HINT);
  const rules = await client.active(AmuletRules, [dso]);
  if (rules.length === 0) {
    const payload: AmuletRulesPayload = {
      dso,
      configSchedule: { initialValue: amuletConfigOf(network, synchronizerId), futureValues: [] },
      isDevNet: network.isDevNet,
    };
    await client.submit([dso], [
      { kind: "createAndExercise", template: AmuletRules as Template<unknown>, payload, choice: AmuletRules_Bootstrap_Rounds.name, argument: bootstrapRoundsArgument(network, payload) },
      ...genesis.map((g) => ({ kind: "create" as const, template: g.template, payload: g.payload(dso) })),
    ], { commandId: "ccwallet-network-genesis" });
  } else {
    for (const g of genesis) {
      if ((await client.active(g.template, [dso])).length === 0) await client.create([dso], g.template, g.payload(dso));
    }
    // Data written by a version whose genesis took two commands may have stopped between them.
    const [first] = rules.filter((r) => r.payload.dso === dso);
    if (first && !(await hasAnyRound(client, dso))) {
      await client.exercise([dso], AmuletRules, first.record.contractId, AmuletRules_Bootstrap_Rounds, bootstrapRoundsArgument(network, first.payload));
    }
  }
  // The DSO's own: anyone can sign a license or a featured right naming itself as `dso`.
  if (!(await client.active(ValidatorLicense, [validator])).some((l) => l.payload.dso === dso)) {
    await client.create([dso], ValidatorLicense, { validator, sponsor: dso, dso, faucetState: null, lastActiveAt: null });
  }
  if (!(await client.active(FeaturedAppRight, [validator])).some((f) => f.payload.dso === dso && f.payload.provider === validator)) {
    await client.create([dso], FeaturedAppRight, { dso, provider: validator });
  }
  return { dso, validator };
}

/** The first rounds' price, and a round 0 as long as a tick. */
function bootstrapRoundsArgument(network: NetworkConfig, rules: AmuletRulesPayload) {
  return { amuletPrice: network.amuletPrice, round0Duration: rules.configSchedule.initialValue.tickDuration };
}

/** Whether the DSO has a mining round in any phase: once genesis ran, it always has. */
async function hasAnyRound(client: LedgerClient, dso: string): Promise<boolean> {
  const ofDso = (rounds: readonly { readonly payload: { readonly dso: string } }[]) => rounds.some((r) => r.payload.dso === dso);
  return (
    ofDso(await client.active(OpenMiningRound, [dso])) ||
    ofDso(await client.active(SummarizingMiningRound, [dso])) ||
    ofDso(await client.active(IssuingMiningRound, [dso])) ||
    ofDso(await client.active(ClosedMiningRound, [dso]))
  );
}
