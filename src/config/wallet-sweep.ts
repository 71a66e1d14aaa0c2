/**
 * `automation.walletSweep` (Splice's Helm `walletSweep`, HOCON `wallet-sweep`): per sender party
 * hosted here, keep its balance at or below `maxBalanceUSD` by sending what is above
 * `minBalanceUSD` to `receiver` — as a transfer offer, or through the receiver's preapproval.
 */
import { z } from "zod";
import { nonNegative, positive } from "./decimal.js";
import { partyId, partyMap } from "./party-id.js";

const SweepEntry = z
  .strictObject({
    /** USD: a balance above this is swept. */
    maxBalanceUSD: positive,
    /** USD: what a sweep leaves behind. Zero (sweep everything) is allowed, as in Splice. */
    minBalanceUSD: nonNegative,
    receiver: partyId,
    /** One-step send through the receiver's TransferPreapproval instead of a transfer offer. */
    useTransferPreapproval: z.boolean().default(false),
  })
  .check((ctx) => {
    // Equal bounds would sweep on every cent received; min above max could never be reached.
    if (!ctx.value.minBalanceUSD.lt(ctx.value.maxBalanceUSD)) {
      ctx.issues.push({ code: "custom", input: ctx.value, path: ["minBalanceUSD"], message: "must be less than maxBalanceUSD" });
    }
  });

export type WalletSweepEntry = z.infer<typeof SweepEntry>;

export const WalletSweepSchema = partyMap(SweepEntry)
  .check((ctx) => {
    for (const [sender, entry] of Object.entries(ctx.value)) {
      if (entry.receiver === sender) ctx.issues.push({ code: "custom", input: entry, path: [sender, "receiver"], message: "must differ from the sender" });
      else if (sweepsBackTo(ctx.value, sender)) {
        // A → B → A: each sweep's CC would be swept back, on every holding change, for fees alone.
        ctx.issues.push({ code: "custom", input: entry, path: [sender, "receiver"], message: "sweeps form a cycle: the CC would be swept back to this sender" });
      }
    }
  })
  .default({});

export type WalletSweepConfig = z.infer<typeof WalletSweepSchema>;

/** Whether following the receivers from `sender` leads back to it. */
function sweepsBackTo(sweeps: Readonly<Record<string, { readonly receiver: string }>>, sender: string): boolean {
  const seen = new Set<string>();
  for (let at = sweeps[sender]?.receiver; at !== undefined && !seen.has(at); at = sweeps[at]?.receiver) {
    if (at === sender) return true;
    seen.add(at);
  }
  return false;
}
