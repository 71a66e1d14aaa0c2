/**
 * The validator's wallet automation (`automation` in the CCWALLET_CONFIG file): which triggers
 * run. Splice runs all of them by default; benchmarks and tests of raw holdings switch some off.
 */
import { z } from "zod";
import { AutoAcceptTransfersSchema } from "./auto-accept-transfers.js";
import { TopupSchema } from "./topup.js";
import { TransferPreapprovalSchema } from "./transfer-preapproval.js";
import { WalletSweepSchema } from "./wallet-sweep.js";

export const AutomationSchema = z
  .strictObject({
    collectRewards: z.boolean().default(true),
    renewPreapprovals: z.boolean().default(true),
    mergeHoldings: z.boolean().default(true),
    /** Holdings above this count get merged (spec §8: more than 10). */
    mergeThreshold: z.number().int().positive().default(10),
    /** Wall-clock polling period of the automation loop: 100 ms to an hour (Node's timers take no more than ~24 days). */
    pollMs: z.number().int().min(100).max(3_600_000).default(1000),
    /** Steps not run at start, by name (Splice's `automation.paused-triggers`); resumed at runtime only. */
    pausedTriggers: z.array(z.string().min(1)).default([]),
    /** Sweeps of hosted senders' excess balance (wallet-sweep.ts); none by default. */
    walletSweep: WalletSweepSchema,
    /** Hosted receivers' automatic acceptance of transfers (auto-accept-transfers.ts); none by default. */
    autoAcceptTransfers: AutoAcceptTransfersSchema,
    /** Extra traffic bought for the participant (topup.ts); off by default. */
    topup: TopupSchema,
    /** Lifetime and renewal window of the preapprovals the validator pays for (transfer-preapproval.ts). */
    transferPreapproval: TransferPreapprovalSchema,
  })
  .prefault({});

export type AutomationConfig = z.infer<typeof AutomationSchema>;
