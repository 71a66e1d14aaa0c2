/**
 * `POST /v0/wallet/transfer-offers`: the sender offers CC to a receiver; the offer is a
 * `TransferOffer` signed by the sender. The tracking id makes the create exactly-once (409 once
 * created, 429 while in flight). Nothing is locked or paid here: the sender's wallet pays when
 * the receiver has accepted (automation/complete-accepted-offers.ts).
 */
import type { Numeric } from "../../ledger/numeric.js";
import { TransferOffer } from "../../templates/splice/wallet/transfer-offer.js";
import { walletErrors } from "../wallet-error.js";
import { submitTracked } from "../support/tracked-submission.js";
import { parseDescription, parseExpiresAt, parseKnownParty, parseTrackingId } from "../support/tracked-input.js";
import type { WalletDeps } from "../wallet-deps.js";
import { type ContractId } from "../../ledger/ids.js";

export interface CreateTransferOfferInput {
  readonly sender: string;
  readonly receiver: string;
  /** Already parsed: positive, at most 10 decimals. */
  readonly amount: Numeric;
  readonly description: string;
  /** Unix microseconds. */
  readonly expiresAt: bigint;
  readonly trackingId: string;
}

/** Returns the offer's contract id. */
export async function createTransferOffer(deps: WalletDeps, input: CreateTransferOfferInput): Promise<ContractId> {
  if (!input.amount.isPositive()) throw walletErrors.badRequest("amount: must be greater than zero");
  const trackingId = parseTrackingId(input.trackingId);
  const description = parseDescription(input.description);
  const expiresAt = parseExpiresAt(deps, input.expiresAt);
  const receiver = await parseKnownParty(deps, "receiver_party_id", input.receiver);
  const { sender, amount } = input;
  return submitTracked(deps, sender, "transfer-offer", trackingId, (commandId) =>
    deps.client.create(
      [sender],
      TransferOffer,
      { sender, receiver, dso: deps.dso, amount: { amount, unit: "AmuletUnit" }, description, expiresAt, trackingId },
      { commandId },
    ),
  );
}
