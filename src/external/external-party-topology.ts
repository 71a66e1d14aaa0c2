/**
 * What GenerateExternalPartyTopology answers for a key and a hint: the party id, and the three
 * transactions that create it (namespace delegation to the key, hosting on this participant with
 * confirmation permission, the key that authorizes its Daml transactions) with their multi-hash.
 */
import { externalPartyId } from "./external-party-id.js";
import { fingerprintOf, type Fingerprint } from "./fingerprint.js";
import type { SigningKey } from "./signing-key.js";
import { multiTransactionHash, ParticipantPermission, topologyTransactionHash, topologyTransactionOf, type HostingParticipant } from "./topology-transactions.js";

export interface ExternalPartyTopology {
  readonly partyId: string;
  readonly fingerprint: Fingerprint;
  /** Versioned bytes: NamespaceDelegation, PartyToParticipant, PartyToKeyMapping. */
  readonly transactions: readonly Uint8Array[];
  /** The 34-byte hash the party signs once for all three. */
  readonly multiHash: Uint8Array;
}

/** `permission` is this participant's: confirmation unless it should only observe. */
export function externalPartyTopology(hint: string, key: SigningKey, participantUid: string, permission: ParticipantPermission = ParticipantPermission.Confirmation): ExternalPartyTopology {
  const fingerprint = fingerprintOf(key);
  const partyId = externalPartyId(hint, fingerprint);
  const hosting: HostingParticipant = { uid: participantUid, permission };
  const transactions = [
    topologyTransactionOf.namespaceDelegation(fingerprint, key),
    topologyTransactionOf.partyToParticipant(partyId, 1, [hosting]),
    topologyTransactionOf.partyToKeyMapping(partyId, 1, [key]),
  ];
  return { partyId, fingerprint, transactions, multiHash: multiTransactionHash(transactions.map(topologyTransactionHash)) };
}
