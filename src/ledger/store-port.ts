/**
 * The store port: everything the ledger persists, behind one interface. It sits with the ledger,
 * which owns the records; the adapters below it (src/store: SQLite embedded, MongoDB production)
 * implement it, and one conformance suite (test/store/) holds them to it.
 *
 * The commit is the only write of ledger state. It is atomic per request: dedup check, input
 * activeness, key uniqueness, archival, creation, offset assignment and the completion all land
 * together or not at all. A request that loses a race is not dropped: it turns into a rejection
 * completion at its own offset, so every submission yields exactly one completion.
 */
import type {
  CompletionRecord,
  ContractRecord,
  PartyRecord,
  TransactionRecord,
  UserRecord,
  UserRight,
} from "./records.js";

/**
 * A commit whose outcome nobody knows: a failed fsync or commit, a writer gone mid-batch, an
 * ambiguous database answer. It may have landed (its completion then reaches the streams) or not;
 * the store that throws it commits nothing more until a restart recovers what is on disk.
 */
export class CommitOutcomeUnknown extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CommitOutcomeUnknown";
  }
}

export type Conflict =
  | { readonly kind: "inactive"; readonly contractIds: readonly string[] }
  | { readonly kind: "duplicateKey"; readonly keyHash: string }
  | { readonly kind: "duplicateCommand"; readonly existingOffset: bigint };

export interface Deduplication {
  /** Change id: (userId, sorted actAs, commandId), already serialised. */
  readonly changeKey: string;
  /** A previous acceptance recorded at or after this record time (micros) makes this a duplicate. */
  readonly since: bigint;
  /** Alternatively: a previous acceptance at an offset greater than this one. */
  readonly sinceOffset?: bigint;
}

export interface TransactionCommit {
  readonly kind: "transaction";
  readonly dedup?: Deduplication;
  /** Contracts that must still be active (everything the transaction read or exercised). */
  readonly inputs: readonly string[];
  /** Inputs the transaction consumes. */
  readonly archives: readonly string[];
  /** Contracts created and still active at the end of the transaction (offset/updateId filled in by the store). */
  readonly creates: readonly Omit<ContractRecord, "createdOffset">[];
  readonly transaction: Omit<TransactionRecord, "offset">;
  readonly completion: Omit<CompletionRecord, "offset">;
  /** The completion to write instead when a conflict is found at commit. */
  readonly onConflict: (conflict: Conflict) => Omit<CompletionRecord, "offset">;
}

export interface RejectionCommit {
  readonly kind: "rejection";
  readonly completion: Omit<CompletionRecord, "offset">;
}

export type CommitRequest = TransactionCommit | RejectionCommit;

export type CommitResult =
  | { readonly kind: "committed"; readonly offset: bigint }
  | { readonly kind: "rejected"; readonly offset: bigint; readonly conflict?: Conflict };

export interface ContractQuery {
  /** Only contracts with one of these stakeholders; undefined means any party. */
  readonly parties?: readonly string[];
  /** Only contracts of these templates (package-id form); undefined means any template. */
  readonly templateIds?: readonly string[];
  /**
   * The snapshot at this offset: contracts created at or before it and not archived at or before
   * it (so 0 gives none). Undefined means the contracts active now. An offset past the ledger end
   * reads as the ledger end; callers refuse it first (OFFSET_AFTER_LEDGER_END).
   */
  readonly activeAtOffset?: bigint;
}

/** Where a contract stands in creation order: its transaction's offset, then its node id. */
export interface CreationPosition {
  readonly offset: bigint;
  readonly nodeId: number;
}

/** One page of the snapshot at an offset (`activeContractsPage`). */
export interface ContractPageQuery {
  /** Only contracts with one of these stakeholders; undefined means any party. */
  readonly parties?: readonly string[];
  /** The snapshot's offset, as in ContractQuery (a snapshot at a fixed offset never changes). */
  readonly activeAtOffset: bigint;
  /** Only contracts after this position; undefined means from the first. */
  readonly after?: CreationPosition;
  /** At most this many contracts (at least 1). */
  readonly limit: number;
  /**
   * The page also ends after the first contract that brings its records' stored size to this (it
   * holds at least one): shorter than `limit` with more to come, as `transactions`' `maxBytes`.
   */
  readonly maxBytes?: number;
}

/** A contract as created, and the offset of the transaction that archived it, if any. */
export interface ContractHistory {
  readonly contract: ContractRecord;
  readonly archivedOffset?: bigint;
}

export interface LedgerStore {
  /** Latest offset (0 when empty). */
  ledgerEnd(): Promise<bigint>;
  commit(request: CommitRequest): Promise<CommitResult>;
  /** The last accepted command with this change key, for the early duplicate check. */
  acceptedCommand(changeKey: string): Promise<{ readonly offset: bigint; readonly recordTime: bigint } | undefined>;

  /** An active contract, or undefined if unknown or archived. */
  activeContract(contractId: string): Promise<ContractRecord | undefined>;
  activeContractByKey(keyHash: string): Promise<ContractRecord | undefined>;
  /** A contract whether active or archived, with the offset that archived it (events by contract id). */
  contractHistory(contractId: string): Promise<ContractHistory | undefined>;
  /** Active contracts (now, or at `query.activeAtOffset`) in creation order. */
  activeContracts(query: ContractQuery): Promise<ContractRecord[]>;
  /**
   * The first `limit` contracts of the snapshot at `activeAtOffset` after `after`, in creation
   * order: a paginated read resumes where its last page ended without reading what came before
   * (the paginated ACS, whose every page read the whole snapshot).
   */
  activeContractsPage(query: ContractPageQuery): Promise<ContractRecord[]>;

  /**
   * Updates with beginExclusive < offset <= endInclusive, ascending, at most `limit`. With
   * `maxBytes`, the page also ends after the first row that brings its records' stored size to
   * `maxBytes` (it holds at least one row): shorter than `limit` with more to come, so a caller
   * that passes it reads on after the page's last row (a stream's page is held for as long as its
   * reader stalls, and 250 transactions of a megabyte each made one of 250 MB).
   */
  transactions(beginExclusive: bigint, endInclusive: bigint, limit: number, maxBytes?: number): Promise<TransactionRecord[]>;
  transactionById(updateId: string): Promise<TransactionRecord | undefined>;
  transactionByOffset(offset: bigint): Promise<TransactionRecord | undefined>;
  /**
   * Completions with beginExclusive < offset <= endInclusive, ascending, at most `limit`; with
   * `userId`, only that user's (read through an index, so a stream catching up reads its user's
   * completions, not everyone's).
   */
  completions(beginExclusive: bigint, endInclusive: bigint, limit: number, userId?: string): Promise<CompletionRecord[]>;

  /** Called with the new ledger end after commits (from this or, for shared stores, another instance). */
  onLedgerEnd(listener: (end: bigint) => void): () => void;
}

export interface PartyStore {
  /** Adds the party; false if it already existed. */
  addParty(party: PartyRecord): Promise<boolean>;
  party(party: string): Promise<PartyRecord | undefined>;
  /** Parties in id order, after `pageToken` (exclusive), at most `pageSize`. */
  parties(pageToken: string, pageSize: number): Promise<PartyRecord[]>;
  /**
   * Read-modify-write of a party, atomic: stores what `change` returns (nothing when it returns
   * its argument), throws what it throws; undefined for an unknown party.
   */
  updateParty(party: string, change: (party: PartyRecord) => PartyRecord): Promise<PartyRecord | undefined>;
}

export interface UserStore {
  /** Adds the user; false if it already existed. */
  addUser(user: UserRecord): Promise<boolean>;
  user(id: string): Promise<UserRecord | undefined>;
  users(pageToken: string, pageSize: number): Promise<UserRecord[]>;
  deleteUser(id: string): Promise<boolean>;
  /** Adds rights not yet held; returns those newly granted, or undefined for an unknown user. */
  grantRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined>;
  /** Removes rights held; returns those actually revoked, or undefined for an unknown user. */
  revokeRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined>;
  /**
   * Changes a user in one read-modify-write: `change` gets the stored user and returns it as it
   * is to be stored; an error it throws (a stale resource version) leaves the user as it was. It
   * may be called more than once (a store may retry a transaction), so it must be pure. Returns
   * the stored user, or undefined for an unknown one.
   */
  updateUser(id: string, change: (user: UserRecord) => UserRecord): Promise<UserRecord | undefined>;
}

export interface SettingsStore {
  setting(name: string): Promise<string | undefined>;
  /** Sets the value unless one exists; returns the value in force afterwards. */
  initSetting(name: string, value: string): Promise<string>;
  putSetting(name: string, value: string): Promise<void>;
}

/** A Daml-LF package uploaded in a DAR, as the participant keeps it (built-in packages are not stored). */
export interface PackageRecord {
  /** Lowercase hex SHA-256 of `payload` (the Daml-LF archive's hash). */
  readonly packageId: string;
  /** The Daml-LF `Archive.payload` bytes, handed back by GetPackage. */
  readonly payload: Uint8Array;
  /** Package name and version from the DAR's manifest or entry name; "" when the DAR does not say. */
  readonly name: string;
  readonly version: string;
  /** When it was first uploaded (micros since the epoch). */
  readonly knownSince: bigint;
}

/** What listings show of a package: everything but its payload (which may be megabytes). */
export type PackageSummary = Omit<PackageRecord, "payload"> & { readonly size: number };

export interface PackageStore {
  /** Adds the package; false if one with this id was already stored (uploads are idempotent). */
  addPackage(pkg: PackageRecord): Promise<boolean>;
  package(packageId: string): Promise<PackageRecord | undefined>;
  /** Every stored package, in package id order. */
  packages(): Promise<PackageSummary[]>;
}

export interface Store extends LedgerStore, PartyStore, UserStore, SettingsStore, PackageStore {
  /** Human-readable name for logs: `sqlite:/path` or `mongodb://host/db`. */
  readonly description: string;
  /** A read that reaches the database itself, past every cache (readiness); throws if it cannot. */
  probe(): Promise<void>;
  close(): Promise<void>;
}
