/**
 * What bounds a member's traffic, read from the network's contracts: the base rate from the
 * current AmuletRules config, and the extra traffic the DSO's MemberTraffic contracts record as
 * bought for the member on the active synchronizer.
 */
import { fromDamlJson } from "../../ledger/daml-type.js";
import type { LedgerStore } from "../../ledger/store-port.js";
import { qualifiedId } from "../../ledger/template.js";
import { AmuletRules, currentConfig, type AmuletRulesPayload } from "../../templates/splice/amulet-rules.js";
import { MemberTraffic, type MemberTrafficPayload } from "../../templates/splice/decentralized-synchronizer.js";
import type { BaseRate } from "./traffic-state.js";

export interface TrafficLimits {
  readonly rate: BaseRate;
  /** Total extra traffic bought for the member (bytes). */
  readonly purchased: bigint;
  readonly synchronizerId: string;
}

export const AMULET_RULES_ID = qualifiedId(AmuletRules.id);
export const MEMBER_TRAFFIC_ID = qualifiedId(MemberTraffic.id);

/**
 * The limits now, or undefined before the network has its AmuletRules (genesis is free).
 * Only the DSO's contracts count: anyone can sign an AmuletRules or a MemberTraffic naming itself
 * as `dso`, and one naming this member would otherwise buy it traffic for nothing.
 */
export async function readTrafficLimits(store: LedgerStore, member: string, dso: string): Promise<TrafficLimits | undefined> {
  const rules = (await store.activeContracts({ templateIds: [AMULET_RULES_ID] }))
    .map((r) => fromDamlJson(AmuletRules.payload, r.payload) as AmuletRulesPayload)
    .find((p) => p.dso === dso);
  if (!rules) return undefined;
  const sync = currentConfig(rules).decentralizedSynchronizer;
  const { burstAmount, burstWindow } = sync.fees.baseRateTrafficLimits;
  const traffic = await store.activeContracts({ templateIds: [MEMBER_TRAFFIC_ID] });
  let purchased = 0n;
  for (const record of traffic) {
    const p = fromDamlJson(MemberTraffic.payload, record.payload) as MemberTrafficPayload;
    if (p.dso === dso && p.memberId === member && p.synchronizerId === sync.activeSynchronizer) purchased += p.totalPurchased;
  }
  return { rate: { burstAmount, burstWindowMicros: burstWindow.microseconds }, purchased, synchronizerId: sync.activeSynchronizer };
}
