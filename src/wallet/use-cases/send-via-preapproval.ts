/**
 * `POST /v0/wallet/transfer-preapproval/send`: a one-step transfer to a receiver that has a
 * preapproval. The deduplication id becomes the command id (`commandIdFor`) with a 24-hour
 * deduplication period, so a retried request never pays twice.
 */
import { Numeric } from "../../ledger/numeric.js";
import { TransferPreapproval, TransferPreapproval_Send } from "../../templates/splice/transfer-preapproval.js";
import { FeaturedAppRight } from "../../templates/splice/amulet.js";
import { commandIdFor, DEDUPLICATION_DAY } from "../support/command-ids.js";
import { withPickedContracts } from "../support/contention.js";
import { lookupTransferPreapproval } from "../../registry/index.js";
import { selectInputs } from "../support/select-inputs.js";
import { spendingAs } from "../support/spend-queue.js";
import { registryDepsOf } from "../support/token-standard-calls.js";
import { contextFor, spendableOf, type SpendableCandidate } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { parseFreeText } from "../support/tracked-input.js";

export interface PreapprovalSend {
  readonly sender: string;
  readonly receiver: string;
  readonly amount: Numeric;
  readonly deduplicationId: string;
  readonly description?: string;
}

/** The receiver's usable preapproval, if any (active and not expired): the registry's answer. */
export const findPreapproval = (deps: WalletDeps, receiver: string) => lookupTransferPreapproval(registryDepsOf(deps), receiver);

export async function sendViaPreapproval(deps: WalletDeps, req: PreapprovalSend): Promise<void> {
  if (!req.amount.isPositive()) throw walletErrors.badRequest("amount must be positive");
  if (req.receiver === req.sender) throw walletErrors.badRequest("sender and receiver must differ");
  if (req.description !== undefined) parseFreeText("description", req.description);
  const preapproval = await findPreapproval(deps, req.receiver);
  // Splice answers INVALID_ARGUMENT (400) here: the receiver exists but cannot be paid this way.
  if (!preapproval) throw walletErrors.badRequest(`Receiver ${req.receiver} does not have a TransferPreapproval`);
  await spendingAs(deps, req.sender, () => send(deps, req, preapproval));
}

async function send(deps: WalletDeps, req: PreapprovalSend, preapproval: NonNullable<Awaited<ReturnType<typeof findPreapproval>>>): Promise<void> {
  const spendable = await spendableOf(deps, req.sender);
  const inputs = pickInputs(spendable.candidates, req.amount);
  const [featured] = (await deps.client.active(FeaturedAppRight, [preapproval.payload.provider])).filter((f) => f.payload.dso === deps.dso && f.payload.provider === preapproval.payload.provider);
  const { context, disclosed } = contextFor(spendable, inputs, featured?.contractId ?? null);
  // Every contract here was looked up by the wallet: one spent meanwhile is contention (429).
  await withPickedContracts(() =>
    deps.client.exercise(
      [req.sender],
      TransferPreapproval,
      preapproval.contractId,
      TransferPreapproval_Send,
      {
        context: { amuletRules: spendable.state.rules.contractId, context },
        inputs: inputs.map((i) => i.input),
        amount: req.amount,
        sender: req.sender,
        description: req.description ?? null,
      },
      {
        commandId: commandIdFor("transfer-preapproval-send", req.deduplicationId),
        deduplication: DEDUPLICATION_DAY,
        disclosed: [...disclosed, preapproval.record, ...(featured ? [featured.record] : [])],
      },
    ),
  );
}

/** Inputs covering `amount`, or the wallet's refusal saying why not. */
export function pickInputs(candidates: readonly SpendableCandidate[], amount: Numeric): SpendableCandidate[] {
  const selection = selectInputs(candidates, amount);
  switch (selection.kind) {
    case "ok":
      return selection.inputs as SpendableCandidate[];
    case "insufficient":
      throw walletErrors.badRequest(`insufficient funds: ${amount} CC requested, ${selection.available} CC available`);
    case "too-many-inputs":
      throw walletErrors.badRequest(
        `the amount cannot be covered with at most 100 input contracts (the largest 100 holdings cover ${selection.coverableWithMax} CC); merge holdings first`,
      );
  }
}
