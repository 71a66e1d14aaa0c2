/**
 * Daml's `DA.Assert` deadlines, on the ledger-time comparisons: they bound the ledger time rather
 * than read it, so an externally signed transaction with a deadline can be executed any time
 * before it (see time-bounds.ts). The failure texts name the deadline as Splice's errors do.
 */
import type { UpdateContext } from "./template.js";

/** `assertWithinDeadline`: the deadline (exclusive) has not passed at ledger time. */
export function assertWithinDeadline(ctx: UpdateContext, name: string, deadline: bigint): void {
  ctx.require(ctx.isLedgerTimeLT(deadline), `${name} is in the future: the deadline has passed`);
}

/** `assertDeadlineExceeded`: the deadline has been reached at ledger time. */
export function assertDeadlineExceeded(ctx: UpdateContext, name: string, deadline: bigint): void {
  ctx.require(ctx.isLedgerTimeGE(deadline), `${name} has passed: the deadline is not reached yet`);
}
