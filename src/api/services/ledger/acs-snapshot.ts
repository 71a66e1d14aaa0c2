/**
 * The active contracts a caller may see at an offset, as GetActiveContracts entries: shared by the
 * streaming StateService.GetActiveContracts and the paginated active-contracts-page.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { GetActiveContractsResponseSchema } from "../../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { errors } from "../../../ledger/errors.js";
import { visibleTo, type EventFormat } from "../../../ledger/event-format.js";
import { catchUpTurn } from "../../../ledger/catch-up-turns.js";
import { STREAM_PAGE_BYTES, type PageHold } from "../../../ledger/stream-page-budget.js";
import { jsonSize } from "../../../util/json-size.js";
import type { ContractRecord } from "../../../ledger/records.js";
import type { CreationPosition } from "../../../ledger/store-port.js";
import { readersOf } from "../../convert/format-proto.js";
import type { LedgerApi } from "./ledger-api.js";

export type AcsEntry = MessageInitShape<typeof GetActiveContractsResponseSchema>;

/** OFFSET_AFTER_LEDGER_END and a negative offset refused; `field` names it in the error. */
export async function checkSnapshotOffset(api: LedgerApi, offset: bigint, field: string): Promise<void> {
  if (offset < 0n) throw errors.invalidField(field, "offset must not be negative");
  const end = await api.store.ledgerEnd();
  if (offset > end) throw errors.offsetAfterLedgerEnd(offset, end, field);
}

/** Contracts the streaming ACS reads from the store at once, at most (and about a megabyte of them). */
export const ACS_CHUNK = 500;

/**
 * The entries the format shows at `offset`, in creation order (Canton: none at the ledger begin, 0).
 * The parties' snapshot is read a chunk at a time (at most 500 contracts and about a megabyte of
 * them), each chunk in a turn of its own among the streams catching up: one whole read of a party's
 * 58 MB ACS held the event loop for 0.4 s, a chunk of 500 contracts of 60 KB for 0.3 s, and a
 * stream whose client stopped reading held all of it. Everyone's snapshot (an admin's any-party
 * read) is chunked the same way. Each read waits for room on the node's page budget and counts on
 * it until its last contract has been taken.
 */
export async function* acsEntries(api: LedgerApi, format: EventFormat, offset: bigint, signal: AbortSignal, pages?: PageHold): AsyncGenerator<AcsEntry> {
  if (offset === 0n) return;
  const readers = readersOf(format);
  for await (const c of snapshotContracts(api, readers, offset, signal, pages)) {
    const entry = acsEntryOf(api, format, readers, c);
    if (entry) yield entry;
  }
}

async function* snapshotContracts(api: LedgerApi, readers: readonly string[] | "any", offset: bigint, signal: AbortSignal, pages?: PageHold): AsyncGenerator<ContractRecord> {
  try {
    const parties = readers === "any" ? undefined : readers;
    for (let after: CreationPosition | undefined; ; ) {
      if (after) await catchUpTurn(signal);
      // Each chunk counts on the node's page budget until the next one replaces it.
      if (pages) await pages.admit(signal);
      if (signal.aborted) return;
      const chunk = await api.store.activeContractsPage({ parties, activeAtOffset: offset, limit: ACS_CHUNK, maxBytes: STREAM_PAGE_BYTES, ...(after ? { after } : {}) });
      pages?.weigh(jsonSize(chunk));
      yield* chunk;
      // A short chunk may have been cut by its size: only an empty one is the end.
      if (chunk.length === 0) return;
      const last = chunk[chunk.length - 1]!;
      after = { offset: last.createdOffset, nodeId: last.nodeId };
    }
  } finally {
    pages?.release();
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
