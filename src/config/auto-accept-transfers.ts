/**
 * `automation.autoAcceptTransfers` (Splice's Helm `autoAcceptTransfers`, HOCON
 * `auto-accept-transfers`): per receiver party hosted here, the senders whose incoming transfers
 * it accepts without asking — transfer offers (as Splice) and token-standard transfer
 * instructions (beyond Splice, which leaves those to the user: its issue #7061).
 */
import { z } from "zod";
import { partyId, partyMap } from "./party-id.js";

const AutoAcceptEntry = z.strictObject({
  fromParties: z.array(partyId).default([]),
});

export type AutoAcceptEntry = z.infer<typeof AutoAcceptEntry>;

export const AutoAcceptTransfersSchema = partyMap(AutoAcceptEntry).default({});

export type AutoAcceptTransfersConfig = z.infer<typeof AutoAcceptTransfersSchema>;
