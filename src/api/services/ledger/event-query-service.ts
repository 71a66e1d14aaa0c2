/**
 * EventQueryService: a contract's create event and, once archived, its archive event, as the
 * requesting parties see them (ACS-delta presentation). Canton 3.4 takes either the deprecated
 * `requesting_parties` or an `event_format`, never both; what the parties may not see is
 * CONTRACT_EVENTS_NOT_FOUND, exactly like a contract that never existed.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  EventQueryService,
  type GetEventsByContractIdRequest,
  type GetEventsByContractIdResponseSchema,
} from "../../../../gen/com/daml/ledger/api/v2/event_query_service_pb.js";
import { errors } from "../../../ledger/errors.js";
import { visibleTo, type EventFormat } from "../../../ledger/event-format.js";
import { isContractId } from "../../../ledger/ids.js";
import type { ContractHistory } from "../../../ledger/store-port.js";
import { defaultTransactionFormat, eventFormatOf } from "../../convert/format-proto.js";
import { authenticate } from "./authenticate.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";
import { authorizeFormat } from "./format-claims.js";

type Response = MessageInitShape<typeof GetEventsByContractIdResponseSchema>;

function formatOf(api: LedgerApi, req: GetEventsByContractIdRequest): EventFormat {
  if (req.eventFormat) {
    if (req.requestingParties.length > 0) {
      throw errors.invalidArgument("Both requesting_parties and event_format are set. Please use either backwards compatible arguments (requesting_parties) or event_format, but not both.");
    }
    return eventFormatOf(req.eventFormat, false, api.registry);
  }
  if (req.requestingParties.length === 0) throw errors.missingField("event_format");
  return defaultTransactionFormat(req.requestingParties).eventFormat;
}

/** The archive event of the transaction at `offset` for this contract, if the format sees it. */
async function archivedEvent(api: LedgerApi, contractId: string, offset: bigint, format: EventFormat) {
  const tx = await api.store.transactionByOffset(offset);
  const projected = tx && api.encoder.transaction(tx, { eventFormat: format, shape: "ACS_DELTA" }, false);
  const event = projected?.events.find((e) => e.event.case === "archived" && e.event.value.contractId === contractId);
  return event?.event.case === "archived" ? event.event.value : undefined;
}

async function eventsOf(api: LedgerApi, history: ContractHistory, format: EventFormat): Promise<Response | undefined> {
  const c = history.contract;
  const seen = visibleTo(format, [...new Set([...c.signatories, ...c.observers])], c.templateId, api.encoder.interfacesOf(c.templateId));
  if (!seen) return undefined;
  const synchronizerId = api.identity.synchronizerId;
  const created = { createdEvent: api.encoder.activeContract(c, seen.witnesses, seen.blob, seen.views), synchronizerId };
  if (history.archivedOffset === undefined) return { created };
  const archived = await archivedEvent(api, c.contractId, history.archivedOffset, format);
  return archived ? { created, archived: { archivedEvent: archived, synchronizerId } } : { created };
}

export function eventQueryService(api: LedgerApi): ServiceImpl<typeof EventQueryService> {
  return {
    getEventsByContractId: (req, ctx) =>
      guard(api.log, async () => {
        const user = await authenticate(api, ctx);
        if (!req.contractId) throw errors.missingField("contract_id");
        if (!isContractId(req.contractId)) throw errors.invalidField("contract_id", `Invalid contract id ${JSON.stringify(req.contractId)}`);
        const format = formatOf(api, req);
        authorizeFormat(user, format);
        const history = await api.store.contractHistory(req.contractId);
        const events = history && (await eventsOf(api, history, format));
        if (!events) throw errors.contractEventsNotFound(req.contractId);
        return events;
      }),
  };
}
