/** Network facts through the validator's scan proxy: the open round's amulet price and the amulet rules. */
import { api, type Session } from "./api.js";
import { usePoll } from "./poll.js";

interface OpenRound {
  contract: { payload: { round: { number: string }; amuletPrice: string; opensAt: string } };
}

/** USD per CC of the newest round that is open now (B.4). */
export function useAmuletPrice(session: Session): string | undefined {
  return usePoll(async () => {
    const r = await api<{ open_mining_rounds: OpenRound[] }>(session, "GET", "/v0/scan-proxy/open-and-issuing-mining-rounds");
    const open = r.open_mining_rounds.map((o) => o.contract.payload).filter((p) => Date.parse(p.opensAt) <= Date.now());
    const newest = (open.length ? open : r.open_mining_rounds.map((o) => o.contract.payload)).sort((a, b) => Number(b.round.number) - Number(a.round.number))[0];
    return newest?.amuletPrice;
  }, [session.token]).data;
}

export interface RulesFacts {
  readonly isDevNet: boolean;
  /** USD per day of a preapproval's lifetime. */
  readonly preapprovalFeeUsdPerDay: string | undefined;
  readonly synchronizer: string | undefined;
  /** USD per MB of extra traffic. */
  readonly extraTrafficPriceUsdPerMb: string | undefined;
}

interface RulesPayload {
  isDevNet?: boolean;
  configSchedule: { initialValue: { transferPreapprovalFee?: string; decentralizedSynchronizer?: { activeSynchronizer?: string; fees?: { extraTrafficPrice?: string } } } };
}

export function useAmuletRules(session: Session): RulesFacts | undefined {
  return usePoll(async () => {
    const r = await api<{ amulet_rules: { contract: { payload: RulesPayload } } }>(session, "GET", "/v0/scan-proxy/amulet-rules");
    const p = r.amulet_rules.contract.payload;
    return {
      isDevNet: p.isDevNet === true,
      preapprovalFeeUsdPerDay: p.configSchedule.initialValue.transferPreapprovalFee,
      synchronizer: p.configSchedule.initialValue.decentralizedSynchronizer?.activeSynchronizer,
      extraTrafficPriceUsdPerMb: p.configSchedule.initialValue.decentralizedSynchronizer?.fees?.extraTrafficPrice,
    };
  }, [session.token]).data;
}
