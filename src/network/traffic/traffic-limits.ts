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

/** The limits now, or undefined before the network has its AmuletRules (genesis is free). */
export async function readTrafficLimits(store: LedgerStore, member: string): Promise<TrafficLimits | undefined> {
  const [rules] = await store.activeContracts({ templateIds: [AMULET_RULES_ID] });
  if (!rules) return undefined;
  const sync = currentConfig(fromDamlJson(AmuletRules.payload, rules.payload) as AmuletRulesPayload).decentralizedSynchronizer;
  const { burstAmount, burstWindow } = sync.fees.baseRateTrafficLimits;
  const traffic = await store.activeContracts({ templateIds: [MEMBER_TRAFFIC_ID] });
  let purchased = 0n;
  for (const record of traffic) {
    const p = fromDamlJson(MemberTraffic.payload, record.payload) as MemberTrafficPayload;
    if (p.memberId === member && p.synchronizerId === sync.activeSynchronizer) purchased += p.totalPurchased;
  }
  return { rate: { burstAmount, burstWindowMicros: burstWindow.microseconds }, purchased, synchronizerId: sync.activeSynchronizer };
}
