/**
 * Canton's `transactionFormatClaims`: a transaction format reads as the parties it names, or as
 * any party for a party-wildcard (`filtersForAnyParty`), whichever call it comes with. Checked
 * before the call does anything, so a submission whose format the caller may not read is refused
 * before it commits.
 */
import { isParticipantAdmin, requireReadAny, requireReadAs } from "../../../auth/index.js";
import type { TransactionFormat } from "../../../ledger/event-format.js";
import type { UserRecord } from "../../../ledger/records.js";
import { readersOf } from "../../convert/format-proto.js";

export function requireFormatReaders(user: UserRecord, format: TransactionFormat | undefined): void {
  if (!format || isParticipantAdmin(user)) return;
  const readers = readersOf(format.eventFormat);
  if (readers === "any") requireReadAny(user);
  else requireReadAs(user, readers);
}
