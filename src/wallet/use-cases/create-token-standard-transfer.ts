/**
 * `POST /v0/wallet/token-standard/transfers`: a CC transfer through the token standard's
 * `TransferFactory` (CC's `ExternalPartyAmuletRules`), as any token-standard wallet makes it.
 * The registry decides the kind: to a receiver with a preapproval it completes at once, otherwise
 * the CC is locked (with a fee reserve) in an `AmuletTransferInstruction` the receiver accepts or
 * rejects; the reserve comes back to the sender when the instruction ends.
 *
 * `tracking_id` is the idempotency key: it becomes the command id with a 24-hour deduplication
 * period (a created transfer answers 409, one in flight 429); a failed attempt may be retried.
 */
import type { Numeric } from "../../ledger/numeric.js";
import { lookupTransferPreapproval } from "../../registry/index.js";
import { META } from "../../templates/splice/metadata.js";
import { twoStepFeeReserve } from "../../templates/splice/token-standard/two-step-transfer.js";
import type { Transfer, TransferInstructionResult } from "../../templates/splice/token-standard/transfer-instruction-v1.js";
import { commandIdFor, DEDUPLICATION_DAY } from "../support/command-ids.js";
import { withPickedContracts } from "../support/contention.js";
import { exclusively } from "../support/in-flight.js";
import { pickInputs } from "./send-via-preapproval.js";
import { instructTransfer, registryDepsOf } from "../support/token-standard-calls.js";
import { spendingAs } from "../support/spend-queue.js";
import { spendableOf } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export interface TokenStandardTransferRequest {
  readonly sender: string;
  readonly receiver: string;
  readonly amount: Numeric;
  readonly description: string;
  /** Unix microseconds: the transfer's `executeBefore`. */
  readonly expiresAt: bigint;
  readonly trackingId: string;
}

export async function createTokenStandardTransfer(deps: WalletDeps, req: TokenStandardTransferRequest): Promise<TransferInstructionResult> {
  if (!req.amount.isPositive()) throw walletErrors.badRequest("amount must be positive");
  if (req.trackingId.length === 0) throw walletErrors.badRequest("tracking_id must not be empty");
  const now = deps.clock.now();
  if (req.expiresAt <= now) throw walletErrors.badRequest(`expires_at ${req.expiresAt} is not in the future (ledger time is ${now})`);
  const busy = `a token-standard transfer with tracking id ${req.trackingId} is being processed; retry later`;
  return exclusively(deps, `token-standard-transfer:${req.sender}:${req.trackingId}`, busy, () => spendingAs(deps, req.sender, async () => {
    // Holdings only: the token standard spends Holding contracts, not reward coupons.
    const spendable = await spendableOf(deps, req.sender);
    const holdings = spendable.candidates.filter((c) => c.kind === "holding");
    const offer = req.receiver !== req.sender && !(await lookupTransferPreapproval(registryDepsOf(deps), req.receiver));
    const needed = offer ? req.amount.add(twoStepFeeReserve(spendable.openRound.payload, req.amount, req.expiresAt - now)) : req.amount;
    const inputs = pickInputs(holdings, needed);
    const transfer: Transfer = {
      sender: req.sender,
      receiver: req.receiver,
      amount: req.amount,
      instrumentId: { admin: deps.dso, id: "Amulet" },
      requestedAt: now,
      executeBefore: req.expiresAt,
      inputHoldingCids: inputs.map((i) => i.contractId),
      meta: { values: new Map([[META.reason, req.description]]) },
    };
    const options = { commandId: commandIdFor("token-standard-transfer", req.trackingId), deduplication: DEDUPLICATION_DAY };
    const { result } = await withPickedContracts(() => instructTransfer(deps, transfer, options));
    return result;
  }));
}

