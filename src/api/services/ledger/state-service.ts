/** StateService: the ledger end and the active contracts a reader may see. */
import type { ServiceImpl } from "@connectrpc/connect";
import { StateService } from "../../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { isParticipantAdmin, requireReadAny, requireReadAs } from "../../../auth/index.js";
import { errors } from "../../../ledger/errors.js";
import { visibleTo } from "../../../ledger/event-format.js";
import { eventFormatOf, readersOf } from "../../convert/format-proto.js";
import { authenticate } from "./authenticate.js";
import { guard, guardStream } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";

export function stateService(api: LedgerApi): ServiceImpl<typeof StateService> {
  return {
    getLedgerEnd: (_req, ctx) =>
      guard(api.log, async () => {
        await authenticate(api, ctx);
        return { offset: await api.store.ledgerEnd() };
      }),
    getActiveContracts: (req, ctx) =>
      guardStream(api.log, async function* () {
        const user = await authenticate(api, ctx);
        const format = eventFormatOf(req.eventFormat ?? req.filter, req.verbose, api.registry);
        const readers = readersOf(format);
        if (!isParticipantAdmin(user)) {
          if (readers === "any") requireReadAny(user);
          else requireReadAs(user, readers);
        }
        if (req.activeAtOffset < 0n) throw errors.invalidField("active_at_offset", "offset must not be negative");
        const end = await api.store.ledgerEnd();
        if (req.activeAtOffset > end) throw errors.offsetAfterLedgerEnd(req.activeAtOffset, end, "active_at_offset");
        // Canton: the snapshot at the ledger begin (offset 0) is the empty set.
        if (req.activeAtOffset === 0n) return;
        const contracts = await api.store.activeContracts({
          parties: readers === "any" ? undefined : readers,
          activeAtOffset: req.activeAtOffset,
        });
        for (const c of contracts) {
          const candidates = readers === "any" ? [...c.signatories, ...c.observers] : readers.filter((p) => c.signatories.includes(p) || c.observers.includes(p));
          const seen = visibleTo(format, candidates, c.templateId, api.encoder.interfacesOf(c.templateId));
          if (!seen) continue;
          yield {
            workflowId: "",
            contractEntry: {
              case: "activeContract",
              value: {
                createdEvent: api.encoder.activeContract(c, seen.witnesses, seen.blob, seen.views),
                synchronizerId: api.identity.synchronizerId,
                reassignmentCounter: 0n,
              },
            },
          };
        }
      }),
  };
}
