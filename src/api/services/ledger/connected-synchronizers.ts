/**
 * StateService.GetConnectedSynchronizers and GetLatestPrunedOffsets: the one synchronizer this
 * participant is connected to, and the pruning offsets (this node never prunes).
 */
import { ParticipantPermission } from "../../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import type { GetConnectedSynchronizersRequest } from "../../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { isParticipantAdmin, requireReadAs } from "../../../auth/index.js";
import type { UserRecord } from "../../../ledger/records.js";
import { errors } from "../../../ledger/errors.js";
import { isPartyId } from "../../../ledger/ids.js";
import type { LedgerApi } from "./ledger-api.js";

/** The alias the participant knows its synchronizer by (Splice validators use `global`). */
export const SYNCHRONIZER_ALIAS = "global";

type Request = Pick<GetConnectedSynchronizersRequest, "party" | "participantId" | "identityProviderId">;

export async function connectedSynchronizers(api: LedgerApi, user: UserRecord, req: Request) {
  if (req.party !== "" && !isPartyId(req.party)) throw errors.invalidField("party", `Invalid party id ${JSON.stringify(req.party)}`);
  // Asking about a party's hosting is reading as that party; without one it is the participant's own view.
  if (req.party !== "" && !isParticipantAdmin(user)) requireReadAs(user, [req.party]);
  const one = {
    synchronizerAlias: SYNCHRONIZER_ALIAS,
    synchronizerId: api.identity.synchronizerId,
    permission: ParticipantPermission.SUBMISSION,
  };
  // Another participant, or a party this participant does not host, is connected to nothing we know.
  if (req.participantId !== "" && req.participantId !== api.identity.participantId) return { connectedSynchronizers: [] };
  if (req.party !== "" && !(await api.store.party(req.party))) return { connectedSynchronizers: [] };
  return { connectedSynchronizers: [one] };
}

/** Nothing is ever pruned here: both offsets are 0, Canton's "not pruned yet". */
export function latestPrunedOffsets() {
  return { participantPrunedUpToInclusive: 0n, allDivulgedContractsPrunedUpToInclusive: 0n };
}
