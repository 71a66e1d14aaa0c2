/**
 * PartyManagementService's external-party methods: GenerateExternalPartyTopology builds the three
 * onboarding topology transactions of a key held outside this node (src/external);
 * AllocateExternalParty is not served yet (issue #13).
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
import { InvalidSigningKey, parseSigningPublicKey } from "../../../external/signing-key.js";
import { ParticipantPermission } from "../../../external/topology-transactions.js";
import { errors } from "../../../ledger/errors.js";
import { authenticate } from "./authenticate.js";
import type { LedgerApi } from "./ledger-api.js";

/** This participant's UID as topology names it (`name::1220…`, without the `PAR::` member prefix). */
export const participantUidOf = (participantId: string) => participantId.replace(/^PAR::/, "");

function checkSynchronizer(api: LedgerApi, synchronizer: string): void {
  if (synchronizer === "") throw errors.missingField("synchronizer");
  if (synchronizer !== api.identity.synchronizerId) throw errors.invalidField("synchronizer", `${synchronizer} is not the synchronizer this participant is connected to`);
}

export async function generateExternalPartyTopology(api: LedgerApi, req: GenerateExternalPartyTopologyRequest, ctx: HandlerContext): Promise<Omit<GenerateExternalPartyTopologyResponse, "$typeName">> {
  requireAdmin(await authenticate(api, ctx));
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

export async function allocateExternalParty(api: LedgerApi, _req: AllocateExternalPartyRequest, ctx: HandlerContext): Promise<Omit<AllocateExternalPartyResponse, "$typeName">> {
  requireAdmin(await authenticate(api, ctx));
  throw errors.unimplemented("AllocateExternalParty is not available on this participant yet");
}
