/**
 * Caps on the streams open at once (completions, updates, active contracts): overall, as Canton's
 * `ledger-api.rate-limit.max-streams`, and per user, so one user cannot take every slot. Past a
 * cap a new stream is refused with MAXIMUM_NUMBER_OF_STREAMS (ABORTED: retry later); the streams
 * already open go on unharmed.
 */
import { errors } from "../../../ledger/errors.js";

export interface StreamLimitOptions {
  readonly maxStreams: number;
  readonly maxStreamsPerUser: number;
}

export class StreamLimits {
  private total = 0;
  private readonly perUser = new Map<string, number>();

  constructor(private readonly options: StreamLimitOptions) {}

  get open(): number {
    return this.total;
  }

  /** Counts a new stream of `userId`, or throws past a cap; the returned function ends it (idempotent). */
  acquire(userId: string, method: string): () => void {
    const { maxStreams, maxStreamsPerUser } = this.options;
    const mine = this.perUser.get(userId) ?? 0;
    if (this.total >= maxStreams) throw errors.maximumNumberOfStreams(this.total, maxStreams, method);
    if (mine >= maxStreamsPerUser) throw errors.maximumNumberOfStreams(mine, maxStreamsPerUser, method);
    this.total++;
    this.perUser.set(userId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left === 0) this.perUser.delete(userId);
      else this.perUser.set(userId, left);
    };
  }
}
