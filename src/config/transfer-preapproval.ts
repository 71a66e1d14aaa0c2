/**
 * `automation.transferPreapproval`: Splice's `transfer-preapproval` settings of the validator
 * (reference A.6). The lifetime the validator buys when it creates a preapproval and adds on each
 * renewal, and how close to its expiry a preapproval is renewed. Durations as "90d" or "P90D"
 * (defaults 90 and 30 days).
 */
import { z } from "zod";
import { duration } from "./duration.js";

export const TransferPreapprovalSchema = z
  .strictObject({
    preapprovalLifetime: duration.default(90 * 86_400_000),
    renewalDuration: duration.default(30 * 86_400_000),
  })
  .refine((c) => c.renewalDuration < c.preapprovalLifetime, { message: "renewalDuration must be shorter than preapprovalLifetime" })
  .prefault({});

export type TransferPreapprovalConfig = z.infer<typeof TransferPreapprovalSchema>;
