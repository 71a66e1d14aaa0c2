/** StateService: the ledger end and the active contracts a reader may see. */
import type { ServiceImpl } from "@connectrpc/connect";
import { StateService } from "../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { isParticipantAdmin, requireReadAny, requireReadAs } from "../../auth/index.js";
import { errors } from "../../ledger/errors.js";
import { eventFormatOf, readersOf } from "../convert/format-proto.js";
import { authenticate } from "./authenticate.js";
import { guard, guardStream } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";

export function stateService(api: LedgerApi): ServiceImpl<typeof StateService> {
  return {
    getLedgerEnd: (_req, ctx) =>
      guard(async () => {
        await authenticate(api, ctx);
        return { offset: await api.store.ledgerEnd() };
      }),
    getActiveContracts: (req, ctx) =>
      guardStream(async function* () {
        const user = await authenticate(api, ctx);
        const format = eventFormatOf(req.eventFormat ?? req.filter, req.verbose, api.registry);
        const readers = readersOf(format);
        if (!isParticipantAdmin(user)) {
          if (readers === "any") requireReadAny(user);
          else requireReadAs(user, readers);
        }
        const end = await api.store.ledgerEnd();
        if (req.activeAtOffset > end) throw errors.offsetAfterLedgerEnd(req.activeAtOffset, end);
        if (req.activeAtOffset !== 0n && req.activeAtOffset !== end) {
          throw errors.unimplemented("active_at_offset other than the ledger end; read the ACS at the ledger end and follow GetUpdates");
        }
        const contracts = await api.store.activeContracts({ parties: readers === "any" ? undefined : readers });
        for (const c of contracts) {
          const witnesses: string[] = [];
          let blob = false;
          const views = new Set<string>();
          const ifaces = api.encoder.interfacesOf(c.templateId);
          for (const p of readers === "any" ? [...c.signatories, ...c.observers] : readers) {
            if (!c.signatories.includes(p) && !c.observers.includes(p)) continue;
            const f = format.byParty.get(p) ?? format.anyParty;
            if (!f) continue;
            const t = f.templates.get(c.templateId);
            const matchedIfaces = ifaces.filter((i) => f.interfaces.has(i));
            if (!f.wildcard && !t && matchedIfaces.length === 0) continue;
            witnesses.push(p);
            blob ||= (f.wildcard?.includeCreatedEventBlob ?? false) || (t?.includeCreatedEventBlob ?? false) || matchedIfaces.some((i) => f.interfaces.get(i)!.includeCreatedEventBlob);
            matchedIfaces.filter((i) => f.interfaces.get(i)!.includeInterfaceView).forEach((i) => views.add(i));
          }
          if (witnesses.length === 0) continue;
          yield {
            workflowId: "",
            contractEntry: {
              case: "activeContract",
              value: {
                createdEvent: api.encoder.activeContract(c, witnesses, blob, [...views]),
                synchronizerId: api.identity.synchronizerId,
                reassignmentCounter: 0n,
              },
            },
          };
        }
      }),
  };
}
