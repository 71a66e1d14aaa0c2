/**
 * Reads of the network's shared contracts (what Splice's scan serves): the rules, the rounds
 * and which open round a transfer made now should use.
 */
import type { Active, LedgerClient } from "../ledger/ledger-client.js";
import { AmuletRules, type AmuletRulesPayload } from "../templates/splice/amulet-rules.js";
import {
  ClosedMiningRound,
  IssuingMiningRound,
  OpenMiningRound,
  type ClosedMiningRoundPayload,
  type IssuingMiningRoundPayload,
  type OpenMiningRoundPayload,
} from "../templates/splice/round.js";

export interface NetworkState {
  readonly rules: Active<AmuletRulesPayload>;
  /** Open rounds by ascending number, including ones that open in the future. */
  readonly openRounds: readonly Active<OpenMiningRoundPayload>[];
  readonly issuingRounds: readonly Active<IssuingMiningRoundPayload>[];
  readonly closedRounds: readonly Active<ClosedMiningRoundPayload>[];
}

const byRound = <P extends { round: { number: bigint } }>(a: Active<P>, b: Active<P>) =>
  a.payload.round.number < b.payload.round.number ? -1 : a.payload.round.number > b.payload.round.number ? 1 : 0;

export async function readNetwork(client: LedgerClient, dso: string): Promise<NetworkState> {
  const [rules] = await client.active(AmuletRules, [dso]);
  if (!rules) throw new Error("the network has no AmuletRules yet");
  const [openRounds, issuingRounds, closedRounds] = await Promise.all([
    client.active(OpenMiningRound, [dso]),
    client.active(IssuingMiningRound, [dso]),
    client.active(ClosedMiningRound, [dso]),
  ]);
  return { rules, openRounds: openRounds.sort(byRound), issuingRounds: issuingRounds.sort(byRound), closedRounds: closedRounds.sort(byRound) };
}

/** The newest round that is already open at `now`: the one wallets use for transfers and balances. */
export function latestOpenRound(state: NetworkState, now: bigint): Active<OpenMiningRoundPayload> {
  const open = state.openRounds.filter((r) => r.payload.opensAt <= now);
  const latest = open[open.length - 1];
  if (!latest) throw new Error("no open mining round");
  return latest;
}

/** Issuing rounds a transfer made now may mint coupons of. */
export const openIssuingRounds = (state: NetworkState, now: bigint) => state.issuingRounds.filter((r) => r.payload.opensAt <= now);

/** The latest open round's number, reading only the open rounds (balances need nothing else). */
export async function latestOpenRoundNumber(client: LedgerClient, dso: string, now: bigint): Promise<bigint> {
  const open = (await client.active(OpenMiningRound, [dso])).filter((r) => r.payload.opensAt <= now).sort(byRound);
  const latest = open[open.length - 1];
  if (!latest) throw new Error("no open mining round");
  return latest.payload.round.number;
}
