/**
 * What a client is told when its request lost a race with a concurrent transaction.
 *
 * The ledger refuses the later of two commands that consume the same contract: at commit with
 * LOCAL_VERDICT_INACTIVE_CONTRACTS, or — when the contract was already gone as the command was
 * interpreted — with CONTRACT_NOT_FOUND, both NOT_FOUND (404) as in Canton. For the wallet the
 * two differ only in timing, and the right answer depends on whose contract it was:
 * - contracts the wallet picked itself (selected holdings, the operator's inputs, the open round,
 *   the receiver's preapproval): a concurrent transaction used them, retrying picks fresh ones —
 *   429, never a 404 about a contract the client never named (`withPickedContracts`);
 * - the contract the client named (the offer or instruction to accept, reject or withdraw): when
 *   a concurrent request consumed it, the loser gets the 404 a request a moment later gets, not a
 *   409 or an invitation to retry (`actingOnNamed`).
 */
import { LedgerError } from "../../ledger/errors.js";
import { WalletError } from "../wallet-error.js";

/** A wallet-picked contract found gone (at interpretation or at commit) as contention (429); any other error unchanged. */
export function asContention(e: unknown): unknown {
  if (!(e instanceof LedgerError) || (e.code !== "CONTRACT_NOT_FOUND" && e.code !== "LOCAL_VERDICT_INACTIVE_CONTRACTS")) return e;
  return new WalletError("too-many-requests", `${e.message}: a concurrent transaction used it; retry`, { cause: e });
}

/** Runs a command built from contracts the wallet looked up itself. */
export async function withPickedContracts<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw asContention(e);
  }
}

/**
 * Runs an action on the contract the client named. A ledger refusal after which that contract is
 * no longer active means a concurrent request consumed it first: `gone()` is thrown instead.
 */
export async function actingOnNamed<T>(isActive: () => Promise<boolean>, gone: () => WalletError, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof LedgerError && !(await isActive())) throw gone();
    throw asContention(e);
  }
}
