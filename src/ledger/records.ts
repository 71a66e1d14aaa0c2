/**
 * What the ledger writes: committed transactions, completions, parties and users, in a
 * JSON-serialisable form that both store adapters persist as is. Daml values inside are
 * Daml-LF JSON (labelled records, numbers as strings), the ledger's canonical encoding.
 */

export interface CreateNodeRecord {
  readonly kind: "create";
  readonly nodeId: number;
  readonly contractId: string;
  /** Package-id form `pkgid:Module:Entity`. */
  readonly templateId: string;
  readonly packageName: string;
  readonly payload: unknown;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly key?: unknown;
  /** The contract's salt (`contractSalt`), absent on contracts created before it existed. */
  readonly salt?: string;
  /** Parties that see this node in the ledger-effects view (informees here and above). */
  readonly witnesses: readonly string[];
}

export interface ExerciseNodeRecord {
  readonly kind: "exercise";
  readonly nodeId: number;
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly interfaceId?: string;
  readonly choice: string;
  readonly argument: unknown;
  readonly result: unknown;
  readonly actingParties: readonly string[];
  readonly consuming: boolean;
  readonly lastDescendantNodeId: number;
  readonly witnesses: readonly string[];
  /** Stakeholders of the exercised contract: the witnesses of its archival in the ACS view. */
  readonly stakeholders: readonly string[];
  readonly implementedInterfaces: readonly string[];
  /** Signatories of the exercised contract (absent in records written before they were kept). */
  readonly signatories?: readonly string[];
  /** The choice's observers (absent in records written before they were kept). */
  readonly choiceObservers?: readonly string[];
}

export type NodeRecord = CreateNodeRecord | ExerciseNodeRecord;

export interface TransactionRecord {
  readonly updateId: string;
  readonly offset: bigint;
  readonly commandId: string;
  readonly workflowId: string;
  /** Parties that submitted it; the command id is only shown to them. */
  readonly submitters: readonly string[];
  readonly effectiveAt: bigint;
  readonly recordTime: bigint;
  readonly nodes: readonly NodeRecord[];
  readonly externalTransactionHash?: string;
  /** Traffic the submitting participant paid to have it sequenced (bytes; absent before metering). */
  readonly paidTrafficCost?: bigint;
}

/** A `google.rpc.Status` as the ledger produces it: Canton error code id + category + context. */
export interface StatusRecord {
  readonly code: number;
  readonly message: string;
  readonly errorCode: string;
  readonly category: number;
  readonly context: Readonly<Record<string, string>>;
  readonly resources: readonly (readonly [string, string])[];
  readonly correlationId: string;
  readonly definiteAnswer?: boolean;
}

export type DeduplicationRecord =
  | { readonly kind: "none" }
  | { readonly kind: "duration"; readonly seconds: bigint; readonly nanos: number }
  | { readonly kind: "offset"; readonly offset: bigint };

export interface CompletionRecord {
  readonly offset: bigint;
  readonly commandId: string;
  readonly userId: string;
  readonly actAs: readonly string[];
  readonly submissionId: string;
  readonly updateId?: string;
  readonly status?: StatusRecord;
  readonly deduplication: DeduplicationRecord;
  readonly recordTime: bigint;
  /** Traffic paid for the submission (bytes): its transaction's cost, 0 for a rejection. */
  readonly paidTrafficCost?: bigint;
}

export interface ContractRecord {
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly payload: unknown;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly key?: unknown;
  /** Template id + key, unique among active contracts, when the template has a key. */
  readonly keyHash?: string;
  readonly createdAt: bigint;
  readonly createdOffset: bigint;
  readonly createUpdateId: string;
  readonly nodeId: number;
  /**
   * A secret of the contract's own, in its created-event blob and nowhere else one can read without
   * seeing the contract (`contractSalt`): what makes the blob unforgeable. Absent on contracts
   * created before it existed.
   */
  readonly salt?: string;
}

export interface PartyRecord {
  readonly party: string;
  readonly isLocal: boolean;
  readonly localMetadata: { readonly resourceVersion: string; readonly annotations: Readonly<Record<string, string>> };
  readonly identityProviderId: string;
  /** Set for an external party: its key is held outside the node, so it acts only through signed interactive submissions. */
  readonly external?: ExternalPartyHosting;
}

/** How an external party is hosted here and which keys authorize its transactions (its topology, as plain data). */
export interface ExternalPartyHosting {
  readonly permission: "Confirmation" | "Observation";
  /** Valid signatures of distinct keys an execute needs. */
  readonly threshold: number;
  /** DER X.509 SubjectPublicKeyInfo in hex, with the key's fingerprint (`signed_by`). */
  readonly signingKeys: readonly { readonly fingerprint: string; readonly kind: "ed25519" | "ecdsa-p256"; readonly spki: string }[];
}

export type UserRight =
  | { readonly kind: "ParticipantAdmin" }
  | { readonly kind: "IdentityProviderAdmin" }
  | { readonly kind: "CanActAs"; readonly party: string }
  | { readonly kind: "CanReadAs"; readonly party: string }
  | { readonly kind: "CanReadAsAnyParty" }
  | { readonly kind: "CanExecuteAs"; readonly party: string }
  | { readonly kind: "CanExecuteAsAnyParty" };

export const rightKey = (r: UserRight): string => ("party" in r ? `${r.kind}:${r.party}` : r.kind);

export interface UserRecord {
  readonly id: string;
  readonly primaryParty: string;
  readonly isDeactivated: boolean;
  readonly metadata: { readonly resourceVersion: string; readonly annotations: Readonly<Record<string, string>> };
  readonly identityProviderId: string;
  readonly rights: readonly UserRight[];
}

/** Whether the user holds CanActAs on `party` (auth/rights.ts builds its checks on it; the wallet layer uses it directly). */
export function canActAs(user: Pick<UserRecord, "rights">, party: string): boolean {
  return user.rights.some((r) => r.kind === "CanActAs" && r.party === party);
}
