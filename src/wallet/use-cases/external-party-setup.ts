/**
 * The validator operator's side of hosting an external party (reference/external-parties.md §4):
 * the `ExternalPartySetupProposal` the operator creates and pays for (the party's TransferPreapproval
 * fee for 90 days, burnt from the operator's wallet), and the commands the party itself signs —
 * accepting that proposal, and the legacy `TransferCommand` send. The commands are returned, not
 * submitted: the API prepares them for the party's key and executes them once signed.
 */
import { exerciseCommand, type Command } from "../../ledger/commands.js";
import type { ContractRecord } from "../../ledger/records.js";
import type { Numeric } from "../../ledger/numeric.js";
import { AmuletRules_CreateExternalPartySetupProposal, AmuletRules } from "../../templates/splice/amulet-rules.js";
import { ExternalPartyAmuletRules, ExternalPartyAmuletRules_CreateTransferCommand } from "../../templates/splice/external-party-amulet-rules.js";
import { ExternalPartySetupProposal, ExternalPartySetupProposal_Accept } from "../../templates/splice/external-party-setup-proposal.js";
import { knownParty } from "../support/known-party.js";
import { withPickedContracts } from "../support/contention.js";
import { exclusively } from "../support/in-flight.js";
import { spendingAs } from "../support/spend-queue.js";
import { contextFor } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { WalletError, walletErrors } from "../wallet-error.js";
import { operatorPayment } from "./create-transfer-preapproval.js";
import { findPreapproval } from "./send-via-preapproval.js";

/** A command an external party signs, with the contracts it must be given as disclosed. */
export interface ExternalCommand {
  readonly command: Command;
  readonly disclosed: readonly ContractRecord[];
}

export async function listExternalPartySetupProposals(deps: WalletDeps): Promise<ContractRecord[]> {
  const proposals = await deps.client.active(ExternalPartySetupProposal, [deps.validator]);
  return proposals.filter((p) => p.payload.validator === deps.validator && p.payload.dso === deps.dso).map((p) => p.record);
}

async function proposalOf(deps: WalletDeps, party: string) {
  return (await deps.client.active(ExternalPartySetupProposal, [deps.validator])).find((p) => p.payload.user === party && p.payload.validator === deps.validator);
}

/**
 * Creates the proposal, paid by the operator. 409 when the party already has a proposal or a
 * preapproval (Splice names the existing contract); the operator's missing funds are a 400.
 */
export async function createExternalPartySetupProposal(deps: WalletDeps, rawParty: string): Promise<string> {
  const party = await knownParty(deps, "user_party_id", rawParty);
  return exclusively(deps, `external-setup:${party}`, `a setup proposal for ${party} is being created; retry later`, async () => {
    const existing = await proposalOf(deps, party);
    if (existing) throw walletErrors.conflict(`ExternalPartySetupProposal contract already exists for party ${party}: ${existing.contractId}`);
    const preapproval = await findPreapproval(deps, party);
    if (preapproval) throw walletErrors.conflict(`TransferPreapproval contract already exists for party ${party}: ${preapproval.contractId}`);
    return spendingAs(deps, deps.validator, () =>
      withPickedContracts(async () => {
        const preapprovalExpiresAt = deps.clock.now() + deps.preapprovals.lifetimeMicros;
        const payment = await operatorPayment(deps, preapprovalExpiresAt).catch((e: unknown) => {
          // Splice answers the operator's missing funds here as a failed precondition (400).
          throw e instanceof WalletError && e.kind === "unavailable" ? walletErrors.badRequest(`Insufficient funds for the transfer pre-approval purchase: ${e.message}`) : e;
        });
        const { context, disclosed } = contextFor(payment.spendable, payment.inputs);
        const { result } = await deps.client.exercise(
          [deps.validator],
          AmuletRules,
          payment.spendable.state.rules.contractId,
          AmuletRules_CreateExternalPartySetupProposal,
          { context: { amuletRules: payment.spendable.state.rules.contractId, context }, inputs: payment.inputs.map((i) => i.input), user: party, validator: deps.validator, preapprovalExpiresAt },
          { disclosed },
        );
        return result.proposalCid as string;
      }),
    );
  });
}

/** The accept the party signs: 404 without a proposal, 400 when the party's proposal is another contract. */
export async function setupProposalAcceptCommand(deps: WalletDeps, contractId: string, rawParty: string): Promise<ExternalCommand> {
  const party = await knownParty(deps, "user_party_id", rawParty);
  const proposal = await proposalOf(deps, party);
  if (!proposal) throw walletErrors.notFound(`No ExternalPartySetupProposal found for party ${party}`);
  if (proposal.contractId !== contractId) throw walletErrors.badRequest("Found contract does not match provided contractId.");
  return { command: exerciseCommand(ExternalPartySetupProposal, contractId, ExternalPartySetupProposal_Accept, {}), disclosed: [] };
}

/** The preapproval the accepted proposal created for `party` (the submit-accept answer). */
export async function acceptedPreapprovalOf(deps: WalletDeps, party: string): Promise<string> {
  const found = await findPreapproval(deps, party);
  if (!found) throw walletErrors.badRequest(`No TransferPreapproval found for party ${party} after accepting its setup proposal`);
  return found.contractId;
}

export interface TransferCommandRequest {
  readonly sender: string;
  readonly receiver: string;
  readonly amount: Numeric;
  readonly expiresAt: bigint;
  readonly nonce: bigint;
  readonly description?: string;
}

/**
 * The TransferCommand creation the sender signs, delegated to this validator's operator, on the
 * DSO's ExternalPartyAmuletRules (disclosed: the sender is no stakeholder of it).
 */
export async function transferCommandCreation(deps: WalletDeps, req: TransferCommandRequest): Promise<ExternalCommand> {
  const sender = await knownParty(deps, "sender_party_id", req.sender);
  const receiver = await knownParty(deps, "receiver_party_id", req.receiver);
  if (!req.amount.isPositive()) throw walletErrors.badRequest("amount must be positive");
  if (req.expiresAt <= deps.clock.now()) throw walletErrors.badRequest("expires_at must be in the future");
  if (req.nonce < 0n) throw walletErrors.badRequest("nonce must not be negative");
  if (!(await findPreapproval(deps, receiver))) throw walletErrors.badRequest(`Receiver ${receiver} does not have a TransferPreapproval`);
  const [rules] = await deps.client.active(ExternalPartyAmuletRules, [deps.dso]);
  if (!rules) throw walletErrors.unavailable("the DSO's ExternalPartyAmuletRules are not available");
  const argument = {
    sender,
    receiver,
    delegate: deps.validator,
    amount: req.amount,
    expiresAt: req.expiresAt,
    nonce: req.nonce,
    description: req.description ?? null,
    expectedDso: deps.dso,
  };
  return { command: exerciseCommand(ExternalPartyAmuletRules, rules.contractId, ExternalPartyAmuletRules_CreateTransferCommand, argument), disclosed: [rules.record] };
}
