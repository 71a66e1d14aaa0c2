/**
 * Genesis of the simulated network, idempotent on every start: the DSO party, `AmuletRules`, the
 * first three mining rounds, and the validator operator's license and featured-app right. All of
 * it is made with ledger commands, so it appears in `/v2` updates like anything else.
 */
import type { NetworkConfig } from "../config/network.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import type { Template } from "../ledger/template.js";
import { AmuletRules, AmuletRules_Bootstrap_Rounds, type AmuletRulesPayload } from "../templates/splice/amulet-rules.js";
import { FeaturedAppRight } from "../templates/splice/amulet.js";
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
    const tx = await client.submit([dso], [
      { kind: "create", template: AmuletRules as Template<unknown>, payload },
      ...genesis.map((g) => ({ kind: "create" as const, template: g.template, payload: g.payload(dso) })),
    ], { commandId: "ccwallet-network-genesis" });
    const rulesCid = tx.nodes.find((n) => n.kind === "create")!;
    if (rulesCid.kind !== "create") throw new Error("genesis created no AmuletRules");
    const tick = payload.configSchedule.initialValue.tickDuration;
    await client.exercise([dso], AmuletRules, rulesCid.contractId, AmuletRules_Bootstrap_Rounds, {
      amuletPrice: network.amuletPrice,
      round0Duration: tick,
    });
  } else {
    for (const g of genesis) {
      if ((await client.active(g.template, [dso])).length === 0) await client.create([dso], g.template, g.payload(dso));
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
