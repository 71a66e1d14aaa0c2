/**
 * A contract a choice body fetched (Canton's Fetch node). Not a ledger node: the committed
 * transaction, its node ids and its events are the same with or without it (Canton's Ledger API
 * shows no fetches either); only a prepared transaction shows it, among its parent's children.
 */
export interface FetchRecord {
  /** The exercise whose body fetched (its node id). */
  readonly parent: number;
  /** The number of ledger nodes before the fetch: it comes before the parent's child with this id. */
  readonly before: number;
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly interfaceId?: string;
  readonly signatories: readonly string[];
  readonly stakeholders: readonly string[];
  /** The fetch's authorizers among the contract's stakeholders (as Daml-LF records them). */
  readonly actingParties: readonly string[];
}
