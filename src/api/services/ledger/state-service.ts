/** StateService: the ledger end, the active contracts a reader may see, and where parties are hosted. */
import type { ServiceImpl } from "@connectrpc/connect";
import { ParticipantPermission, StateService } from "../../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { isParticipantAdmin, requireReadAs } from "../../../auth/index.js";
import { errors } from "../../../ledger/errors.js";
import { isPartyId } from "../../../ledger/ids.js";
import { eventFormatOf } from "../../convert/format-proto.js";
import { acsEntries, checkSnapshotOffset } from "./acs-snapshot.js";
import { authenticate } from "./authenticate.js";
import { guard, guardStream } from "./connect-error.js";
import { limitedStream } from "./limited-stream.js";
import type { LedgerApi } from "./ledger-api.js";
import { authorizeFormat } from "./format-claims.js";

/** The participant's name for its one synchronizer (Splice's global synchronizer alias). */
const SYNCHRONIZER_ALIAS = "global";

export function stateService(api: LedgerApi): ServiceImpl<typeof StateService> {
  return {
    getLedgerEnd: (_req, ctx) =>
      guard(api.log, async () => {
        await authenticate(api, ctx);
        return { offset: await api.store.ledgerEnd() };
      }),
    // One synchronizer, which every party of this participant is hosted on with submission rights.
    getConnectedSynchronizers: (req, ctx) =>
      guard(api.log, async () => {
        const user = await authenticate(api, ctx);
        if (req.party && !isPartyId(req.party)) throw errors.invalidField("party", `Invalid party id ${JSON.stringify(req.party)}`);
        if (req.party && !isParticipantAdmin(user)) requireReadAs(user, [req.party]);
        const elsewhere = req.participantId !== "" && req.participantId !== api.identity.participantId;
        const hosted = req.party === "" || (await api.store.party(req.party)) !== undefined;
        if (elsewhere || !hosted) return { connectedSynchronizers: [] };
        return {
          connectedSynchronizers: [
            { synchronizerAlias: SYNCHRONIZER_ALIAS, synchronizerId: api.identity.synchronizerId, permission: ParticipantPermission.SUBMISSION },
          ],
        };
      }),
    // Nothing is ever pruned here.
    getLatestPrunedOffsets: (_req, ctx) =>
      guard(api.log, async () => {
        await authenticate(api, ctx);
        return { participantPrunedUpToInclusive: 0n, allDivulgedContractsPrunedUpToInclusive: 0n };
      }),
    getActiveContracts: (req, ctx) =>
      guardStream(api.log, () => limitedStream(api, ctx, async function* (signal, pages) {
        const user = await authenticate(api, ctx);
        const format = eventFormatOf(req.eventFormat ?? req.filter, req.verbose, api.registry);
        authorizeFormat(user, format);
        await checkSnapshotOffset(api, req.activeAtOffset, "active_at_offset");
        yield* acsEntries(api, format, req.activeAtOffset, signal, pages);
      })),
  };
}
