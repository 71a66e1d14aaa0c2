/**
 * The user's wallet completes a traffic request (Splice's `BuyTrafficRequestTrigger`):
 * `BuyTrafficRequest_Complete` with the validator operator as wallet provider, paying the
 * traffic price in CC from the user's holdings. A request it cannot pay, or that the ledger
 * refuses (unknown synchronizer, below the minimum top-up), is cancelled with the reason
 * (status: failed/rejected); an expired one is expired.
 */
import type { Active } from "../../ledger/ledger-client.js";
import { Numeric } from "../../ledger/numeric.js";
import type { NetworkState } from "../../network/network-state.js";
import { currentConfig } from "../../templates/splice/amulet-rules.js";
import type { OpenMiningRoundPayload } from "../../templates/splice/round.js";
import {
  BuyTrafficRequest,
  BuyTrafficRequest_Cancel,
  BuyTrafficRequest_Complete,
  BuyTrafficRequest_Expire,
  type BuyTrafficRequestPayload,
} from "../../templates/splice/wallet/buy-traffic-request.js";
import { pickInputs } from "../use-cases/send-via-preapproval.js";
import { contextFor, spendableOf } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrorOf } from "../wallet-error.js";
import { actionCommandId, type ContractAction } from "../support/contract-action.js";
import { actOnAll, isPermanentRefusal } from "./act-on-each.js";
import { spendingAs } from "../support/spend-queue.js";
import type { WalletParties } from "./wallet-parties.js";

type Request = Active<BuyTrafficRequestPayload>;

export async function completeBuyTrafficRequests(deps: WalletDeps, parties: WalletParties, state: NetworkState, now: bigint): Promise<boolean> {
  const requests = (await deps.client.active(BuyTrafficRequest)).filter((r) => r.payload.dso === deps.dso);
  if (requests.length === 0) return false;
  const ours = new Set(await parties());
  const byUser = new Map<string, Request[]>();
  for (const r of requests) if (ours.has(r.payload.endUserParty)) byUser.set(r.payload.endUserParty, [...(byUser.get(r.payload.endUserParty) ?? []), r]);
  // Users in parallel; one user's requests one after the other, each on fresh holdings.
  return actOnAll([...byUser.values()], async (mine) => {
    for (const r of mine) await (r.payload.expiresAt <= now ? expire(deps, r) : spendingAs(deps, r.payload.endUserParty, () => complete(deps, state, r)));
  });
}

const commandId = (action: ContractAction, r: Request) => ({ commandId: actionCommandId(action, r.contractId) });

async function expire(deps: WalletDeps, r: Request): Promise<void> {
  await deps.client.exercise([r.payload.endUserParty], BuyTrafficRequest, r.contractId, BuyTrafficRequest_Expire, {}, commandId("buy-traffic-request-expire", r));
}

async function cancel(deps: WalletDeps, r: Request, reason: string): Promise<void> {
  await deps.client.exercise([r.payload.endUserParty], BuyTrafficRequest, r.contractId, BuyTrafficRequest_Cancel, { reason }, commandId("buy-traffic-request-cancel", r));
}

async function complete(deps: WalletDeps, state: NetworkState, r: Request): Promise<void> {
  const user = r.payload.endUserParty;
  const spendable = await spendableOf(deps, user);
  let inputs;
  try {
    inputs = pickInputs(spendable.candidates, trafficPrice(state, spendable.openRound.payload, r.payload.trafficAmount));
  } catch (e) {
    if (isPermanentRefusal(e)) return cancel(deps, r, walletErrorOf(e).message);
    throw e;
  }
  const { context, disclosed } = contextFor(spendable, inputs);
  try {
    await deps.client.exercise(
      [user, deps.validator],
      BuyTrafficRequest,
      r.contractId,
      BuyTrafficRequest_Complete,
      { inputs: inputs.map((i) => i.input), context: { amuletRules: spendable.state.rules.contractId, context }, walletProvider: deps.validator },
      { disclosed, ...commandId("buy-traffic-request-complete", r) },
    );
  } catch (e) {
    if (isPermanentRefusal(e)) return cancel(deps, r, `the purchase was refused: ${walletErrorOf(e).message}`);
    throw e;
  }
}

/** CC for `bytes` of traffic at the open round's price, as `AmuletRules_BuyMemberTraffic` charges it. */
export function trafficPrice(state: NetworkState, round: OpenMiningRoundPayload, bytes: bigint): Numeric {
  const { extraTrafficPrice } = currentConfig(state.rules.payload).decentralizedSynchronizer.fees;
  return Numeric.parse(bytes.toString()).div(Numeric.parse("1000000")).mul(extraTrafficPrice).div(round.amuletPrice);
}
