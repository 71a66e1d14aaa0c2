/** Protobuf filters and formats -> the engine's `EventFormat` / `TransactionFormat`. */
import type {
  EventFormat as ProtoEventFormat,
  Filters,
  TransactionFilter,
  TransactionFormat as ProtoTransactionFormat,
} from "../../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { TransactionShape } from "../../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { errors } from "../../ledger/errors.js";
import { wildcardFilters, type EventFormat, type IdentifierFilters, type TransactionFormat } from "../../ledger/event-format.js";
import { isPartyId } from "../../ledger/ids.js";
import type { TemplateRegistry } from "../../ledger/registry.js";
import { qualifiedId } from "../../ledger/template.js";
import { identifierToString } from "./ledger-proto.js";

function filtersOf(f: Filters | undefined, registry: TemplateRegistry): IdentifierFilters {
  const cumulative = f?.cumulative ?? [];
  let wildcard: IdentifierFilters["wildcard"] = null;
  const templates = new Map<string, { includeCreatedEventBlob: boolean }>();
  const interfaces = new Map<string, { includeInterfaceView: boolean; includeCreatedEventBlob: boolean }>();
  // No cumulative filter at all means "every template" (Canton's party-wildcard default).
  if (cumulative.length === 0) wildcard = { includeCreatedEventBlob: false };
  for (const c of cumulative) {
    const id = c.identifierFilter;
    switch (id.case) {
      case "wildcardFilter":
        wildcard = { includeCreatedEventBlob: (wildcard?.includeCreatedEventBlob ?? false) || id.value.includeCreatedEventBlob };
        break;
      case "templateFilter": {
        const name = identifierToString(id.value.templateId, "template_filter.template_id");
        const e = registry.find(name);
        if (!e || e.kind !== "template") throw errors.templateNotFound(name);
        templates.set(qualifiedId(e.template.id), { includeCreatedEventBlob: id.value.includeCreatedEventBlob });
        break;
      }
      case "interfaceFilter": {
        const name = identifierToString(id.value.interfaceId, "interface_filter.interface_id");
        const e = registry.find(name);
        if (!e || e.kind !== "interface") throw errors.templateNotFound(name);
        interfaces.set(qualifiedId(e.iface.id), {
          includeInterfaceView: id.value.includeInterfaceView,
          includeCreatedEventBlob: id.value.includeCreatedEventBlob,
        });
        break;
      }
      default:
        wildcard = wildcard ?? { includeCreatedEventBlob: false };
    }
  }
  return { wildcard, templates, interfaces };
}

export function eventFormatOf(f: ProtoEventFormat | TransactionFilter | undefined, verbose: boolean, registry: TemplateRegistry): EventFormat {
  if (!f) throw errors.missingField("event_format");
  const byParty = new Map<string, IdentifierFilters>();
  for (const [party, filters] of Object.entries(f.filtersByParty)) {
    if (!isPartyId(party)) throw errors.invalidField("filters_by_party", `Invalid party id ${JSON.stringify(party)}`);
    byParty.set(party, filtersOf(filters, registry));
  }
  const anyParty = f.filtersForAnyParty ? filtersOf(f.filtersForAnyParty, registry) : undefined;
  if (byParty.size === 0 && !anyParty) throw errors.invalidArgument("filters_by_party and filters_for_any_party cannot both be empty");
  return { byParty, anyParty, verbose: "verbose" in f ? f.verbose : verbose };
}

export function transactionFormatOf(f: ProtoTransactionFormat, registry: TemplateRegistry): TransactionFormat {
  const shape =
    f.transactionShape === TransactionShape.LEDGER_EFFECTS
      ? "LEDGER_EFFECTS"
      : f.transactionShape === TransactionShape.ACS_DELTA
        ? "ACS_DELTA"
        : undefined;
  if (!shape) throw errors.invalidField("transaction_shape", "must be TRANSACTION_SHAPE_ACS_DELTA or TRANSACTION_SHAPE_LEDGER_EFFECTS");
  return { eventFormat: eventFormatOf(f.eventFormat, false, registry), shape };
}

/** Canton's default for SubmitAndWaitForTransaction: ACS delta, wildcard for every actAs/readAs party. */
export function defaultTransactionFormat(parties: readonly string[]): TransactionFormat {
  return { eventFormat: { byParty: new Map(parties.map((p) => [p, wildcardFilters])), verbose: true }, shape: "ACS_DELTA" };
}

/** Parties a format reads as, for authorization; "any" for a party-wildcard. */
export function readersOf(format: EventFormat): string[] | "any" {
  return format.anyParty ? "any" : [...format.byParty.keys()];
}
