/**
 * Preapprovals the validator operator provides are renewed while they have less than
 * `automation.transferPreapproval.renewalDuration` (30 days) left, to their old expiry plus the
 * preapproval lifetime (90 days), as Splice's RenewTransferPreapprovalTrigger does; paid from the
 * operator's wallet (spec §3 and §8).
 */
import { type Active } from "../../ledger/ledger-client.js";
import type { NetworkState } from "../../network/network-state.js";
import { TransferPreapproval, TransferPreapproval_Renew, type TransferPreapprovalPayload } from "../../templates/splice/transfer-preapproval.js";
import { preapprovalFeeFor } from "../support/preapproval-fee.js";
import { pickInputs } from "../use-cases/send-via-preapproval.js";
import { spendingAs } from "../support/spend-queue.js";
import { contextFor, spendableOf } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { actOnEach } from "./act-on-each.js";

export async function renewPreapprovals(deps: WalletDeps, state: NetworkState, now: bigint): Promise<boolean> {
  const due = (await deps.client.active(TransferPreapproval, [deps.validator])).filter(
    (p) => p.payload.provider === deps.validator && p.payload.expiresAt > now && p.payload.expiresAt - now < deps.preapprovals.renewWithinMicros,
  );
  return actOnEach(due, (p) => spendingAs(deps, deps.validator, () => renew(deps, state, p)));
}

async function renew(deps: WalletDeps, state: NetworkState, p: Active<TransferPreapprovalPayload>): Promise<void> {
  // Splice's RenewTransferPreapprovalTrigger: the old expiry plus a lifetime (not now plus one).
  const newExpiresAt = p.payload.expiresAt + deps.preapprovals.lifetimeMicros;
  const spendable = await spendableOf(deps, deps.validator);
  const inputs = pickInputs(spendable.candidates, preapprovalFeeFor(state, spendable.openRound.payload, newExpiresAt - p.payload.expiresAt));
  const { context, disclosed } = contextFor(spendable, inputs);
  await deps.client.exercise(
    [deps.validator],
    TransferPreapproval,
    p.contractId,
    TransferPreapproval_Renew,
    { context: { amuletRules: state.rules.contractId, context }, inputs: inputs.map((i) => i.input), newExpiresAt },
    { disclosed },
  );
}
