/**
 * Canton's format claims: an event format reads as the parties it names, or as any party for a
 * party-wildcard (`filtersForAnyParty`), whichever call it comes with (streams, snapshots, event
 * queries, a submission's transaction format). A submission's is checked before it commits.
 */
import { isParticipantAdmin, requireReadAny, requireReadAs } from "../../../auth/index.js";
import type { EventFormat, TransactionFormat } from "../../../ledger/event-format.js";
import type { UserRecord } from "../../../ledger/records.js";
import { readersOf } from "../../convert/format-proto.js";

export function authorizeFormat(user: UserRecord, format: EventFormat): void {
  if (isParticipantAdmin(user)) return;
  const readers = readersOf(format);
  if (readers === "any") requireReadAny(user);
  else requireReadAs(user, readers);
}

/** A transaction format, when one is asked for. */
export function requireFormatReaders(user: UserRecord, format: TransactionFormat | undefined): void {
  if (format) authorizeFormat(user, format.eventFormat);
}
