/**
 * The active contracts a caller may see at an offset, as GetActiveContracts entries: shared by the
 * streaming StateService.GetActiveContracts and the paginated active-contracts-page.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { GetActiveContractsResponseSchema } from "../../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { errors } from "../../../ledger/errors.js";
import { visibleTo, type EventFormat } from "../../../ledger/event-format.js";
import type { ContractRecord } from "../../../ledger/records.js";
import { readersOf } from "../../convert/format-proto.js";
import type { LedgerApi } from "./ledger-api.js";

export type AcsEntry = MessageInitShape<typeof GetActiveContractsResponseSchema>;

/** OFFSET_AFTER_LEDGER_END and a negative offset refused; `field` names it in the error. */
export async function checkSnapshotOffset(api: LedgerApi, offset: bigint, field: string): Promise<void> {
  if (offset < 0n) throw errors.invalidField(field, "offset must not be negative");
  const end = await api.store.ledgerEnd();
  if (offset > end) throw errors.offsetAfterLedgerEnd(offset, end, field);
}

/** The entries the format shows at `offset`, in creation order (Canton: none at the ledger begin, 0). */
export async function* acsEntries(api: LedgerApi, format: EventFormat, offset: bigint): AsyncGenerator<AcsEntry> {
  for await (const { entry } of acsEntriesWithRecords(api, format, offset)) yield entry;
}

/** `acsEntries` with the stored contract each entry shows (for what it weighs). */
export async function* acsEntriesWithRecords(api: LedgerApi, format: EventFormat, offset: bigint): AsyncGenerator<{ readonly entry: AcsEntry; readonly record: ContractRecord }> {
  if (offset === 0n) return;
  const readers = readersOf(format);
  const contracts = await api.store.activeContracts({ parties: readers === "any" ? undefined : readers, activeAtOffset: offset });
  for (const c of contracts) {
    const entry = acsEntryOf(api, format, readers, c);
    if (entry) yield { entry, record: c };
  }
}

/** The entry the format shows of a contract the store found for `readers` (`readersOf(format)`); undefined if none. */
export function acsEntryOf(api: LedgerApi, format: EventFormat, readers: readonly string[] | "any", c: ContractRecord): AcsEntry | undefined {
  const candidates = readers === "any" ? [...c.signatories, ...c.observers] : readers.filter((p) => c.signatories.includes(p) || c.observers.includes(p));
  const seen = visibleTo(format, candidates, c.templateId, api.encoder.interfacesOf(c.templateId));
  if (!seen) return undefined;
  return {
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
