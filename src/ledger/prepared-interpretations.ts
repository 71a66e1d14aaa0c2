/**
 * The node's own interpretations of transactions it prepared for external signing, by update id,
 * with the hash their parties sign. When an execute carries exactly that transaction (its bytes
 * re-hash to the remembered hash), the node commits what it interpreted at prepare instead of
 * interpreting again: a replayable interpretation depends only on its input contracts, and the
 * commit checks that they are still active. Executes of anything else, and of what was forgotten,
 * re-interpret and compare as before. The oldest entries go past the limits (prepares never
 * executed); a transaction too big to keep is simply re-interpreted at its execute.
 */
import { BoundedMap, type BoundedMapLimits } from "./bounded-map.js";
import type { InterpretedTransaction } from "./interpreter.js";

interface Remembered {
  readonly hash: string;
  readonly interpreted: InterpretedTransaction;
  /** The prepared message itself (a transport may hand the same instance back to the execute). */
  readonly message: object;
}

/** The limits of every cache of prepared transactions (this one, and a transport's decoded messages). */
export const PREPARED_CACHE_LIMITS: BoundedMapLimits = { maxEntries: 4096, maxBytes: 64 * 1024 * 1024, maxEntryBytes: 1024 * 1024 };

export class PreparedInterpretations {
  private readonly byUpdateId: BoundedMap<string, Remembered>;

  constructor(limits: BoundedMapLimits = PREPARED_CACHE_LIMITS) {
    this.byUpdateId = new BoundedMap(limits);
  }

  /** `bytes`: the caller's estimate of what the entry holds (interpretation and message). */
  remember(updateId: string, hash: string, interpreted: InterpretedTransaction, message: object, bytes: number): void {
    if (!interpreted.replayable) return;
    this.byUpdateId.set(updateId, { hash, interpreted, message }, bytes);
  }

  /** The hash remembered for `message` if it is the very object prepared under `updateId`. */
  hashOf(updateId: string, message: object): string | undefined {
    const r = this.byUpdateId.get(updateId);
    return r?.message === message ? r.hash : undefined;
  }

  /** The interpretation prepared under `updateId` if it hashed to `hash`; each is handed out once. */
  take(updateId: string, hash: string): InterpretedTransaction | undefined {
    const r = this.byUpdateId.get(updateId);
    if (r?.hash !== hash) return undefined;
    this.byUpdateId.delete(updateId);
    return r.interpreted;
  }

  get size(): number {
    return this.byUpdateId.size;
  }
}
