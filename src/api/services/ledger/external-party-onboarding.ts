/**
 * PartyManagementService's external-party methods: GenerateExternalPartyTopology builds the three
 * onboarding topology transactions of a key held outside this node; AllocateExternalParty checks
 * them signed (src/external/onboarding-check.ts) before the party exists, then records it with its
 * hosting and keys. Nothing is written unless every check passes.
 */
import type { HandlerContext } from "@connectrpc/connect";
import type {
  AllocateExternalPartyRequest,
  AllocateExternalPartyResponse,
  GenerateExternalPartyTopologyRequest,
  GenerateExternalPartyTopologyResponse,
} from "../../../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import { requireAdmin } from "../../../auth/index.js";
import { partyHintProblem } from "../../../external/external-party-id.js";
import { externalPartyTopology } from "../../../external/external-party-topology.js";
import { fingerprintOf } from "../../../external/fingerprint.js";
import { checkOnboarding, OnboardingRejected, type OnboardedParty } from "../../../external/onboarding-check.js";
import { InvalidSigningKey, parseSigningPublicKey } from "../../../external/signing-key.js";
import { ParticipantPermission } from "../../../external/topology-transactions.js";
import { errors, type LedgerError } from "../../../ledger/errors.js";
import type { PartyRecord } from "../../../ledger/records.js";
import { authenticate } from "./authenticate.js";
import type { LedgerApi } from "./ledger-api.js";
import { signatureBy } from "./signature-by.js";

/** This participant's UID as topology names it (`name::1220…`, without the `PAR::` member prefix). */
export const participantUidOf = (participantId: string) => participantId.replace(/^PAR::/, "");

function checkSynchronizer(api: LedgerApi, synchronizer: string): void {
  if (synchronizer === "") throw errors.missingField("synchronizer");
  if (synchronizer !== api.identity.synchronizerId) throw errors.invalidField("synchronizer", `${synchronizer} is not the synchronizer this participant is connected to`);
}

export async function generateExternalPartyTopology(api: LedgerApi, req: GenerateExternalPartyTopologyRequest, ctx: HandlerContext): Promise<Omit<GenerateExternalPartyTopologyResponse, "$typeName">> {
  requireAdmin(await authenticate(api, ctx));
  return topologyFor(api, req);
}

/** The generate-topology answer for a caller already authorized (the `/v0` operator endpoints reuse it). */
export function topologyFor(api: LedgerApi, req: Pick<GenerateExternalPartyTopologyRequest, "synchronizer" | "partyHint" | "publicKey" | "otherConfirmingParticipantUids" | "observingParticipantUids" | "confirmationThreshold" | "localParticipantObservationOnly">): Omit<GenerateExternalPartyTopologyResponse, "$typeName"> {
  checkSynchronizer(api, req.synchronizer);
  const hintProblem = partyHintProblem(req.partyHint);
  if (hintProblem) throw req.partyHint === "" ? errors.missingField("party_hint") : errors.invalidField("party_hint", hintProblem);
  if (!req.publicKey) throw errors.missingField("public_key");
  // One participant is all there is: no other participant can confirm or observe for the party.
  const others = [...req.otherConfirmingParticipantUids, ...req.observingParticipantUids];
  if (others.length > 0) throw errors.invalidField("other_confirming_participant_uids", `Unknown participants ${others.join(", ")}: this participant is the only one on the synchronizer`);
  if (req.confirmationThreshold > 1) throw errors.invalidField("confirmation_threshold", `${req.confirmationThreshold} exceeds the 1 confirming participant`);
  let key;
  try {
    key = parseSigningPublicKey(req.publicKey.format, req.publicKey.keyData, req.publicKey.keySpec);
  } catch (e) {
    if (e instanceof InvalidSigningKey) throw errors.invalidField("public_key", e.message);
    throw e;
  }
  const permission = req.localParticipantObservationOnly ? ParticipantPermission.Observation : ParticipantPermission.Confirmation;
  const t = externalPartyTopology(req.partyHint, key, participantUidOf(api.identity.participantId), permission);
  return { partyId: t.partyId, publicKeyFingerprint: t.fingerprint, topologyTransactions: [...t.transactions], multiHash: t.multiHash };
}

function rejectionError(e: OnboardingRejected): LedgerError {
  switch (e.kind) {
    case "malformed":
      return errors.invalidField("onboarding_transactions", e.message);
    case "invalid-mapping":
      return errors.topologyInvalidMapping(e.message);
    case "invalid-signature":
      return errors.topologyInvalidSignature(e.message);
    case "unauthorized":
      return errors.topologyUnauthorized(e.message);
  }
}

/** The party record of an onboarded external party: its topology as plain data the store keeps. */
function externalPartyRecord(p: OnboardedParty, identityProviderId: string): PartyRecord {
  return {
    party: p.partyId,
    isLocal: true,
    localMetadata: { resourceVersion: "0", annotations: {} },
    identityProviderId,
    external: {
      permission: p.permission === ParticipantPermission.Confirmation ? "Confirmation" : "Observation",
      threshold: p.threshold,
      signingKeys: p.signingKeys.map((k) => ({ fingerprint: fingerprintOf(k), kind: k.kind, spki: Buffer.from(k.spki).toString("hex") })),
    },
  };
}

export async function allocateExternalParty(api: LedgerApi, req: AllocateExternalPartyRequest, ctx: HandlerContext): Promise<Omit<AllocateExternalPartyResponse, "$typeName">> {
  requireAdmin(await authenticate(api, ctx));
  return allocateFor(api, req);
}

/** Allocates a signed onboarding for a caller already authorized (the `/v0` operator endpoints reuse it). */
export async function allocateFor(api: LedgerApi, req: Pick<AllocateExternalPartyRequest, "synchronizer" | "onboardingTransactions" | "multiHashSignatures" | "identityProviderId">): Promise<Omit<AllocateExternalPartyResponse, "$typeName">> {
  checkSynchronizer(api, req.synchronizer);
  if (req.onboardingTransactions.length === 0) throw errors.missingField("onboarding_transactions");
  let party: OnboardedParty;
  try {
    party = checkOnboarding({
      transactions: req.onboardingTransactions.map((t) => ({ bytes: t.transaction, signatures: t.signatures.map(signatureBy) })),
      multiHashSignatures: req.multiHashSignatures.map(signatureBy),
      participantUid: participantUidOf(api.identity.participantId),
    });
  } catch (e) {
    if (e instanceof OnboardingRejected) throw rejectionError(e);
    throw e;
  }
  if (!(await api.store.addParty(externalPartyRecord(party, req.identityProviderId)))) throw errors.partyAlreadyExists(party.partyId);
  return { partyId: party.partyId };
}
