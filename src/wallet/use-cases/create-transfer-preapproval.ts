/**
 * `POST /v0/wallet/transfer-preapproval`: as in Splice, the user's party signs a
 * `TransferPreapprovalProposal` naming the validator operator as provider, and the operator
 * accepts it, paying the fee for a 90-day lifetime from its own wallet (automation renews it
 * later). An existing usable preapproval of the party is answered as such (the API's 409 with
 * the same body); a second request while one runs is 429.
 *
 * Splice leaves the acceptance to the validator's automation and polls for the result; here the
 * request accepts it itself, so the answer is immediate. The operator's funds are checked before
 * anything is submitted, so a validator that cannot pay changes nothing.
 */
import { type Active } from "../../ledger/ledger-client.js";
import { TransferPreapprovalProposal, TransferPreapprovalProposal_Accept, type TransferPreapprovalProposalPayload } from "../../templates/splice/wallet/transfer-preapproval-proposal.js";
import { withPickedContracts } from "../support/contention.js";
import { spendingAs } from "../support/spend-queue.js";
import { exclusively } from "../support/in-flight.js";
import { preapprovalFeeFor } from "../support/preapproval-fee.js";
import { findPreapproval, pickInputs } from "./send-via-preapproval.js";
import { contextFor, spendableOf, type Spendable, type SpendableCandidate } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { WalletError, walletErrors } from "../wallet-error.js";


export interface PreapprovalOutcome {
  /** False when the party already had a usable preapproval (nothing was done). */
  readonly created: boolean;
  readonly contractId: string;
}

export async function createTransferPreapproval(deps: WalletDeps, party: string): Promise<PreapprovalOutcome> {
  const existing = await findPreapproval(deps, party);
  if (existing) return { created: false, contractId: existing.contractId };
  return exclusively(deps, `transfer-preapproval:${party}`, `a transfer preapproval for ${party} is being created; retry later`, async () => {
    const raced = await findPreapproval(deps, party);
    if (raced) return { created: false, contractId: raced.contractId };
    // The operator pays: its spends queue, so concurrent creations for many parties all get paid.
    return spendingAs(deps, deps.validator, async () => ({ created: true, contractId: await create(deps, party) }));
  });
}

async function create(deps: WalletDeps, party: string): Promise<string> {
  const expiresAt = deps.clock.now() + deps.preapprovals.lifetimeMicros;
  const payment = await operatorPayment(deps, expiresAt);
  const { proposal, fresh } = await proposalOf(deps, party);
  try {
    return await withPickedContracts(() => accept(deps, proposal.contractId, payment, expiresAt));
  } catch (e) {
    // A proposal this request created must not outlive its failure.
    if (fresh) await withdraw(deps, party, proposal.contractId).catch(() => undefined);
    throw e;
  }
}

export interface Payment {
  readonly spendable: Spendable;
  readonly inputs: SpendableCandidate[];
}

/** The operator's inputs for the fee; a validator that cannot pay is the operator's problem, not the user's. */
export async function operatorPayment(deps: WalletDeps, expiresAt: bigint): Promise<Payment> {
  const spendable = await spendableOf(deps, deps.validator);
  const fee = preapprovalFeeFor(spendable.state, spendable.openRound.payload, expiresAt - deps.clock.now());
  try {
    return { spendable, inputs: pickInputs(spendable.candidates, fee) };
  } catch (e) {
    if (!(e instanceof WalletError)) throw e;
    throw walletErrors.unavailable(
      `the validator operator cannot pay the transfer preapproval fee of ${fee} CC (${e.message}); contact your validator administrator or retry later`,
    );
  }
}

/** The party's open proposal to this operator (left by an interrupted request), or a new one the party signs. */
async function proposalOf(deps: WalletDeps, party: string): Promise<{ proposal: Active<TransferPreapprovalProposalPayload>; fresh: boolean }> {
  const open = (await deps.client.active(TransferPreapprovalProposal, [party])).find((p) => p.payload.receiver === party && p.payload.provider === deps.validator);
  if (open) return { proposal: open, fresh: false };
  const contractId = await deps.client.create([party], TransferPreapprovalProposal, { receiver: party, provider: deps.validator, expectedDso: deps.dso });
  const created = await deps.client.contract(TransferPreapprovalProposal, contractId);
  return { proposal: created!, fresh: true };
}

async function accept(deps: WalletDeps, proposal: string, payment: Payment, expiresAt: bigint): Promise<string> {
  const { context, disclosed } = contextFor(payment.spendable, payment.inputs);
  const { result } = await deps.client.exercise(
    [deps.validator],
    TransferPreapprovalProposal,
    proposal,
    TransferPreapprovalProposal_Accept,
    { context: { amuletRules: payment.spendable.state.rules.contractId, context }, inputs: payment.inputs.map((i) => i.input), expiresAt },
    { disclosed },
  );
  return result.transferPreapprovalCid;
}

async function withdraw(deps: WalletDeps, party: string, proposal: string): Promise<void> {
  await deps.client.exercise([party], TransferPreapprovalProposal, proposal, TransferPreapprovalProposal.archive, {});
}

