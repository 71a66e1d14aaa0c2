/**
 * The traffic port: how the engine asks whether the submitting member may send a transaction to
 * the synchronizer, and what it pays. The ledger knows no traffic model (that is the network's:
 * src/network/traffic); it only prices each transaction before the commit and settles after it,
 * so a refused submission commits nothing and a lost commit race gives its reservation back.
 */
import type { LedgerError } from "./errors.js";
import type { TransactionRecord } from "./records.js";

/** A reserved traffic cost, held until the commit's fate is known. */
export interface TrafficCharge {
  /** Bytes charged (Canton's `paid_traffic_cost`). */
  readonly cost: bigint;
  /** Keeps the reservation (committed at `offset`) or gives it back (not committed). */
  settle(committed: boolean, offset: bigint): Promise<void>;
}

export interface TrafficPort {
  /**
   * Prices and reserves the cost of a transaction `userId` submits; a LedgerError refuses it.
   * `signatures`: the external parties' signatures it carries (0 for a node-signed submission).
   */
  charge(transaction: Omit<TransactionRecord, "offset">, userId: string, signatures?: number): Promise<TrafficCharge | LedgerError>;
}
