/**
 * Runs one wallet action per due contract, so one failing contract does not hold back the
 * others. Afterwards the first failure is rethrown for the automation loop: a contention (the
 * contract or an input changed or vanished under us) as is, so the loop repeats the pass at once
 * on fresh state; anything else as a plain error, which ends the pass (logged, retried on the
 * next trigger) instead of spinning on a failure that would repeat.
 */
import { LedgerError } from "../../ledger/errors.js";
import { walletErrorOf } from "../wallet-error.js";

/**
 * Items acted on at once, and in one run of a step once one of them acted: the rest wait for the
 * loop's next run, which other steps get their turn before. 30,000 offers expiring together were
 * 30,000 exercises at once: a 14 s pass that held every other step, and 0.9 GB (a hostile review).
 */
export const IN_FLIGHT = 16;
export const PER_RUN = 256;

/** Acts on the items, IN_FLIGHT at a time (their commands share commits); true if any acted. */
export async function actOnAll<T>(due: readonly T[], act: (item: T) => Promise<boolean | void>): Promise<boolean> {
  let acted = false;
  let failure: { readonly reason: unknown } | undefined;
  let next = 0;
  const worker = async () => {
    while (next < due.length && !(acted && next % PER_RUN === 0)) {
      const item = due[next++]!;
      try {
        if ((await act(item)) !== false) acted = true;
      } catch (reason) {
        failure ??= { reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, due.length) }, worker));
  if (failure) throw forTheLoop(failure.reason);
  return acted;
}

/**
 * Acts on each item in turn (a party's spends wait for each other anyway); true if any acted. One
 * party's failure (a coupon it cannot spend, a fee it cannot pay) no longer skips every party after
 * it in the pass: all have their turn, then the first failure goes to the loop as with actOnAll.
 */
export async function actOnEach<T>(due: Iterable<T>, act: (item: T) => Promise<boolean | void>): Promise<boolean> {
  let acted = false;
  let failure: { readonly reason: unknown } | undefined;
  for (const item of due) {
    try {
      if ((await act(item)) !== false) acted = true;
    } catch (reason) {
      failure ??= { reason };
    }
  }
  if (failure) throw forTheLoop(failure.reason);
  return acted;
}

function forTheLoop(failure: unknown): unknown {
  const kind = walletErrorOf(failure).kind;
  if (failure instanceof LedgerError && (kind === "too-many-requests" || kind === "not-found")) return failure;
  return new Error("wallet automation action failed", { cause: failure });
}

/** Whether a refusal is about the request itself (interpretation, funds), so retrying cannot help. */
export const isPermanentRefusal = (e: unknown): boolean => walletErrorOf(e).kind === "bad-request";
