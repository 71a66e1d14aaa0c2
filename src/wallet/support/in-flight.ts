/**
 * Requests in progress per idempotency key, so a second request with the same key while the
 * first still runs is answered 429 (Splice: "currently being processed, retry with back-off")
 * instead of racing it. One set per node (`WalletDeps.local.requests`).
 */
import { walletErrors } from "../wallet-error.js";

export class InFlight {
  private readonly keys = new Set<string>();

  async exclusively<T>(key: string, busy: string, run: () => Promise<T>): Promise<T> {
    if (this.keys.has(key)) throw walletErrors.inFlight(busy);
    this.keys.add(key);
    try {
      return await run();
    } finally {
      this.keys.delete(key);
    }
  }
}

/** Runs `run` unless a request with the same key is in flight on this node (`deps` is the WalletDeps). */
export function exclusively<T>(deps: { readonly local: { readonly requests: InFlight } }, key: string, busy: string, run: () => Promise<T>): Promise<T> {
  return deps.local.requests.exclusively(key, busy, run);
}
