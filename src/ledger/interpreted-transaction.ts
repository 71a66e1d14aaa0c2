/**
 * What an interpretation produces: the transaction tree, and what its commit must check (inputs)
 * and change (archives, creates), with what decides whether it may be committed later as it is.
 */
import type { FetchRecord } from "./fetch-record.js";
import type { TimeBounds } from "./time-bounds.js";
import type { ContractRecord, NodeRecord } from "./records.js";

export interface InterpretedTransaction {
  readonly nodes: NodeRecord[];
  /** The fetches of choice bodies, in the order they ran; only when asked for (prepare, execute). */
  readonly fetches?: readonly FetchRecord[];
  /** Pre-existing contracts read or exercised: they must still be active at commit. */
  readonly inputs: string[];
  readonly archives: string[];
  readonly creates: Omit<ContractRecord, "createdOffset">[];
  /**
   * Whether the outcome depends on nothing but the inputs (immutable while active): no key lookup
   * found a key unassigned, which the commit does not re-check. Only such a transaction may be
   * committed later as interpreted now, given its inputs are still active then.
   */
  readonly replayable: boolean;
  /**
   * Whether a choice body read the ledger time: such a transaction is only valid near the time it
   * was interpreted at (Canton's ledger-time/record-time tolerance), which matters for one
   * committed later than that (an externally signed one, executed after it was prepared).
   */
  readonly usesTime: boolean;
  /**
   * What the ledger-time comparisons (`isLedgerTime*`) require of the ledger time: any time
   * within them gives the same transaction (the prepared metadata's min/max ledger effective time).
   */
  readonly timeBounds: TimeBounds;
  /**
   * What each command's root returned, typed (a create: its contract id). For in-process callers
   * (LedgerClient), which would otherwise decode it back from the root node's JSON; never stored.
   */
  readonly results: readonly unknown[];
}
