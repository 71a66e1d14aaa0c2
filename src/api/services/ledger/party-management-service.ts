/** admin.PartyManagementService: allocate and list the parties hosted here. */
import { decodePageToken, encodePageToken } from "./page-token.js";
import type { ServiceImpl } from "@connectrpc/connect";
import { PartyManagementService } from "../../../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import { isParticipantAdmin, requireAdmin } from "../../../auth/index.js";
import { errors } from "../../../ledger/errors.js";
import { isPartyHint, isPartyId, partyIdFor, randomHex } from "../../../ledger/ids.js";
import type { PartyRecord } from "../../../ledger/records.js";
import { authenticate } from "./authenticate.js";
import { allocateExternalParty, generateExternalPartyTopology } from "./external-party-onboarding.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";
import { partyUpdatePaths, updatedParty } from "./party-update.js";
import { checkAnnotations, checkResourceVersion } from "./object-meta.js";
import { MAX_PAGE_SIZE } from "./version-service.js";

const partyDetails = (p: PartyRecord) => ({
  party: p.party,
  isLocal: p.isLocal,
  localMetadata: { resourceVersion: p.localMetadata.resourceVersion, annotations: { ...p.localMetadata.annotations } },
  identityProviderId: p.identityProviderId,
});

export function partyManagementService(api: LedgerApi): ServiceImpl<typeof PartyManagementService> {
  return {
    getParticipantId: (_req, ctx) =>
      guard(api.log, async () => {
        await authenticate(api, ctx);
        return { participantId: api.identity.participantId };
      }),
    getParties: (req, ctx) =>
      guard(api.log, async () => {
        const user = await authenticate(api, ctx);
        if (req.parties.length === 0) throw errors.missingField("parties");
        const known: PartyRecord[] = [];
        for (const p of req.parties) {
          if (!isPartyId(p)) throw errors.invalidField("parties", `Invalid party id ${JSON.stringify(p)}`);
          if (!isParticipantAdmin(user) && !user.rights.some((r) => "party" in r && r.party === p)) continue;
          const rec = await api.store.party(p);
          if (rec) known.push(rec);
        }
        return { partyDetails: known.map(partyDetails) };
      }),
    listKnownParties: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        if (req.pageSize < 0) throw errors.invalidField("page_size", "must not be negative");
        const size = Math.min(req.pageSize || MAX_PAGE_SIZE, MAX_PAGE_SIZE);
        const page = await api.store.parties(decodePageToken(req.pageToken), size);
        const filtered = req.filterParty ? page.filter((p) => p.party.includes(req.filterParty)) : page;
        return {
          partyDetails: filtered.map(partyDetails),
          nextPageToken: page.length === size ? encodePageToken(page[page.length - 1].party) : "",
        };
      }),
    allocateParty: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        if (req.partyIdHint && !isPartyHint(req.partyIdHint)) {
          throw errors.invalidField("party_id_hint", `Invalid party id hint ${JSON.stringify(req.partyIdHint)}`);
        }
        if (req.synchronizerId && req.synchronizerId !== api.identity.synchronizerId) {
          throw errors.invalidField("synchronizer_id", `${req.synchronizerId} is not the synchronizer this participant is connected to`);
        }
        checkAnnotations(req.localMetadata?.annotations ?? {}, false, "local_metadata.annotations");
        if (req.userId && !(await api.store.user(req.userId))) throw errors.userNotFound(req.userId);
        const party = partyIdFor(req.partyIdHint || `party-${randomHex(8)}`, api.namespace);
        const record: PartyRecord = {
          party,
          isLocal: true,
          localMetadata: { resourceVersion: "0", annotations: { ...(req.localMetadata?.annotations ?? {}) } },
          identityProviderId: req.identityProviderId,
        };
        if (!(await api.store.addParty(record))) throw errors.partyAlreadyExists(party);
        if (req.userId) {
          const granted = await api.store.grantRights(req.userId, [{ kind: "CanActAs", party }]);
          if (!granted) throw errors.userNotFound(req.userId);
        }
        return { partyDetails: partyDetails(record) };
      }),
    updatePartyDetails: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        const d = req.partyDetails;
        if (!d) throw errors.missingField("party_details");
        if (d.party === "") throw errors.missingField("party");
        if (!isPartyId(d.party)) throw errors.invalidField("party", `Invalid party id ${JSON.stringify(d.party)}`);
        const meta = d.localMetadata;
        checkResourceVersion(meta?.resourceVersion ?? "", "party_details.local_metadata.resource_version");
        checkAnnotations(meta?.annotations ?? {}, true, "party_details.local_metadata.annotations");
        // The default identity provider is this node's only one.
        if (d.identityProviderId !== "") throw errors.invalidRequest(`Provided identity_provider_id ${d.identityProviderId} has not been found.`);
        const paths = partyUpdatePaths(d.party, req.updateMask?.paths ?? []);
        const changes = { isLocal: d.isLocal, annotations: meta?.annotations ?? {}, resourceVersion: meta?.resourceVersion ?? "" };
        const party = await api.store.updateParty(d.party, (held) => updatedParty(held, paths, changes));
        if (!party) throw errors.partyNotFound(d.party, "updating a party record");
        return { partyDetails: partyDetails(party) };
      }),
    generateExternalPartyTopology: (req, ctx) => guard(api.log, () => generateExternalPartyTopology(api, req, ctx)),
    allocateExternalParty: (req, ctx) => guard(api.log, () => allocateExternalParty(api, req, ctx)),
  };
}
