/**
 * Recently used active contracts, decoded. Every transfer loads the same network contracts
 * (AmuletRules, the open round, the preapproval, the featured-app right) and usually a holding
 * the previous transfer just created; reading and decoding them from SQLite each time was a
 * fifth of a CC transfer's cost. The store is the only writer of its file, so it keeps the cache
 * exact: a contract enters when created or read, and leaves when archived — only once the write
 * that archives it has committed, and creations only enter then too.
 *
 * Entries are shared: callers must treat records as the immutable values their types say.
 */
import type { ContractRecord } from "../../ledger/records.js";

export class ContractCache {
  private readonly entries = new Map<string, ContractRecord>();

  constructor(private readonly limit: number) {}

  get(contractId: string): ContractRecord | undefined {
    return this.entries.get(contractId);
  }

  /**
   * Remembers an active contract. The oldest entries make room: a hot contract evicted this way
   * costs one read when next used and is back (cheaper than reordering on every hit). They go an
   * eighth at a time, in one pass: a Map finds its oldest key by walking past the holes that
   * deletions left at its front, and evicting one per insert walked them again each time.
   */
  put(record: ContractRecord): void {
    this.entries.set(record.contractId, record);
    if (this.entries.size <= this.limit) return;
    const keep = Math.floor((this.limit * 7) / 8);
    for (const contractId of this.entries.keys()) {
      if (this.entries.size <= keep) break;
      this.entries.delete(contractId);
    }
  }

  archived(contractId: string): void {
    this.entries.delete(contractId);
  }
}
