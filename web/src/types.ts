/** The /v0 shapes the UI reads (wallet-internal.yaml, wallet-external.yaml, scan-proxy.yaml). */

export interface Contract<P> {
  readonly template_id: string;
  readonly contract_id: string;
  readonly payload: P;
}

export interface UserStatus {
  readonly party_id: string;
  readonly user_onboarded: boolean;
  readonly user_wallet_installed: boolean;
}

export interface BalanceResponse {
  readonly round: number;
  readonly effective_unlocked_qty: string;
  readonly effective_locked_qty: string;
}

/** A legacy TransferOffer as `GET /v0/wallet/transfer-offers` lists it. */
export type OfferContract = Contract<{ sender: string; receiver: string; amount: { amount: string }; description: string; expiresAt?: string }>;

/** A token-standard AmuletTransferInstruction (`GET /v0/wallet/token-standard/transfers`). */
export type InstructionContract = Contract<{
  transfer: { sender: string; receiver: string; amount: string; executeBefore: string; meta?: { values?: Record<string, string> } };
}>;

export interface PartyAndAmount {
  readonly party: string;
  readonly amount: string;
}

/** One `POST /v0/wallet/transactions` item (transfer, balance_change, notification, unknown). */
export interface HistoryItem {
  readonly event_id: string;
  readonly transaction_type: string;
  readonly transaction_subtype: { choice: string };
  readonly date: string;
  readonly sender?: PartyAndAmount;
  readonly receivers?: PartyAndAmount[];
  readonly description?: string;
  /** A token-standard transfer's receiver and amount, where the server reports them. */
  readonly transfer_instruction_receiver?: string;
  readonly transfer_instruction_amount?: string;
  /** USD per CC recorded on the transaction, where the server reports it. */
  readonly amulet_price?: string;
}

interface AmuletAmount {
  readonly initialAmount: string;
  readonly createdAt: { number: string };
}

export interface AmuletPosition {
  /** An Amulet's payload has `amount`; a LockedAmulet's has `amulet.amount`. */
  readonly contract: { contract: Contract<{ amount?: AmuletAmount; amulet?: { amount: AmuletAmount } }> };
  readonly round: number;
  readonly accrued_holding_fee: string;
  readonly effective_amount: string;
}

interface Delegation {
  readonly beneficiary: string;
  readonly delegate: string;
  readonly expiresAt: string;
  readonly amuletMergeLimit: string;
}

export interface DelegationWithStatus {
  /** A MintingDelegation's payload is the delegation; a proposal's wraps it in `delegation`. */
  readonly contract: Contract<Partial<Delegation> & { delegation?: Delegation }>;
  readonly beneficiary_hosted: boolean;
}
