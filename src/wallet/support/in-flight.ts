/**
 * Requests in progress per idempotency key, so a second request with the same key while the
 * first still runs is answered 429 (Splice: "currently being processed, retry with back-off")
 * instead of racing it. One set per wallet deps, i.e. per running node.
 */
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

const running = new WeakMap<WalletDeps, Set<string>>();

export async function exclusively<T>(deps: WalletDeps, key: string, busy: string, run: () => Promise<T>): Promise<T> {
  let keys = running.get(deps);
  if (!keys) running.set(deps, (keys = new Set()));
  if (keys.has(key)) throw walletErrors.inFlight(busy);
  keys.add(key);
  try {
    return await run();
  } finally {
    keys.delete(key);
  }
}
