/**
 * Runs one wallet action per due contract, so one failing contract does not hold back the
 * others. Afterwards the first failure is rethrown for the automation loop: a contention (the
 * contract or an input changed or vanished under us) as is, so the loop repeats the pass at once
 * on fresh state; anything
 * else as a plain error, which ends the pass (logged, retried on the next trigger) instead of
 * spinning on a failure that would repeat.
 */
import { LedgerError } from "../ledger/errors.js";
import { walletErrorOf } from "../wallet/wallet-error.js";

export async function actOnEach<T>(due: readonly T[], act: (item: T) => Promise<void>): Promise<boolean> {
  let failure: unknown;
  let acted = false;
  for (const item of due) {
    try {
      await act(item);
      acted = true;
    } catch (e) {
      failure ??= e;
    }
  }
  if (failure === undefined) return acted;
  const kind = walletErrorOf(failure).kind;
  if (failure instanceof LedgerError && (kind === "too-many-requests" || kind === "not-found")) throw failure;
  throw new Error("wallet automation action failed", { cause: failure });
}

/** Whether a refusal is about the request itself (interpretation, funds), so retrying cannot help. */
export const isPermanentRefusal = (e: unknown): boolean => walletErrorOf(e).kind === "bad-request";
