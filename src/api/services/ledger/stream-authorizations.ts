/**
 * Canton's ongoing stream authorization for every open stream, on one timer: every
 * USER_RIGHTS_CHECK_INTERVAL_MS each streaming user is read once (however many streams it has
 * open), and a stream is revoked once the token it was opened with has expired
 * (ACCESS_TOKEN_EXPIRED) or its user's rights have changed, or the user was deleted or
 * deactivated (STALE_STREAM_AUTHORIZATION: retry at once; the new stream is authorized afresh).
 */
import { errors, type LedgerError } from "../../../ledger/errors.js";
import type { UserRecord } from "../../../ledger/records.js";

/** Canton checks a streaming user's rights every 5 s (`user-rights-check-interval`); so do we, more often. */
export const USER_RIGHTS_CHECK_INTERVAL_MS = 1000;

interface Watched {
  /** The user's rights as the stream was authorized with them. */
  readonly granted: string;
  readonly validUntil: Date | undefined;
  readonly revoke: (e: LedgerError) => void;
}

export class StreamAuthorizations {
  private readonly byUser = new Map<string, Set<Watched>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly userOf: (id: string) => Promise<UserRecord | undefined>) {}

  /** Watches a stream of `user`, opened with a token valid until `expiresAt` (epoch seconds); returns the unwatch. */
  watch(user: UserRecord, expiresAt: number | undefined, revoke: (e: LedgerError) => void): () => void {
    const w: Watched = { granted: rightsKey(user), validUntil: expiresAt === undefined ? undefined : new Date(expiresAt * 1000), revoke };
    let mine = this.byUser.get(user.id);
    if (!mine) this.byUser.set(user.id, (mine = new Set()));
    mine.add(w);
    if (!this.timer) {
      this.timer = setInterval(() => void this.check(), USER_RIGHTS_CHECK_INTERVAL_MS);
      this.timer.unref();
    }
    return () => {
      mine.delete(w);
      if (mine.size === 0 && this.byUser.get(user.id) === mine) this.byUser.delete(user.id);
      if (this.byUser.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private async check(): Promise<void> {
    const now = new Date();
    await Promise.all(
      [...this.byUser].map(async ([id, watched]) => {
        let current: UserRecord | undefined;
        try {
          current = await this.userOf(id);
        } catch {
          return; // the store did not answer: check again on the next tick
        }
        const key = current && rightsKey(current);
        for (const w of [...watched]) {
          if (w.validUntil && w.validUntil <= now) w.revoke(errors.accessTokenExpired(w.validUntil, now));
          else if (key !== w.granted) w.revoke(errors.staleStreamAuthorization());
        }
      }),
    );
  }
}

/** What authorizes a user's streams: whether it is active, and its rights, in a canonical order. */
function rightsKey(user: UserRecord): string {
  if (user.isDeactivated) return "deactivated";
  return user.rights.map((r) => JSON.stringify(r)).sort().join("\n");
}
