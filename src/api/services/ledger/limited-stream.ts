/**
 * A stream method's body run inside one of the caller's stream slots (stream-limits.ts), and for
 * as long as the caller stays authorized, as Canton's ongoing stream authorization has it: the
 * stream ends with ACCESS_TOKEN_EXPIRED once the token it was opened with has expired, and with
 * STALE_STREAM_AUTHORIZATION (retry at once: the new stream is authorized afresh, or refused) once
 * the user's rights have changed, or the user was deleted or deactivated; both are checked every
 * USER_RIGHTS_CHECK_INTERVAL_MS. Without this, a revoked user kept reading a party's ledger for
 * as long as its socket stayed open.
 */
import type { HandlerContext } from "@connectrpc/connect";
import { errors, type LedgerError } from "../../../ledger/errors.js";
import type { UserRecord } from "../../../ledger/records.js";
import { authenticate } from "./authenticate.js";
import type { LedgerApi } from "./ledger-api.js";

/** Canton checks a streaming user's rights every 5 s (`user-rights-check-interval`); so do we, more often. */
export const USER_RIGHTS_CHECK_INTERVAL_MS = 1000;

/**
 * Runs a stream body inside a slot of the caller's: authenticated first, released however it ends.
 * The body gets the signal to stop by: the call's, also aborted when the authorization goes stale.
 */
export async function* limitedStream<T>(api: LedgerApi, ctx: HandlerContext, body: (signal: AbortSignal) => AsyncIterable<T>): AsyncGenerator<T> {
  const token = await api.verifier.verify(ctx.requestHeader.get("authorization"));
  const user = await authenticate(api, ctx);
  const release = api.streams.acquire(user.id, `${ctx.service.typeName}/${ctx.method.name}`);
  const stop = new AbortController();
  const onCallEnd = () => stop.abort();
  ctx.signal.addEventListener("abort", onCallEnd, { once: true });
  const watch = watchAuthorization(api, user, token.expiresAt, stop);
  const it = body(stop.signal)[Symbol.asyncIterator]();
  try {
    for (;;) {
      // A revoked authorization aborts the body's signal, which ends whatever it waits for.
      let next: IteratorResult<T>;
      try {
        next = await it.next();
      } catch (e) {
        throw watch.error() ?? e;
      }
      const revoked = watch.error();
      if (revoked) throw revoked;
      if (next.done) return;
      yield next.value;
    }
  } finally {
    watch.stop();
    ctx.signal.removeEventListener("abort", onCallEnd);
    stop.abort();
    void it.return?.(undefined)?.catch(() => undefined);
    release();
  }
}

interface AuthorizationWatch {
  /** The error that ends the stream, once the authorization is gone. */
  error(): LedgerError | undefined;
  stop(): void;
}

function watchAuthorization(api: LedgerApi, user: UserRecord, expiresAt: number | undefined, stop: AbortController): AuthorizationWatch {
  let revoked: LedgerError | undefined;
  const end = (e: LedgerError) => {
    revoked ??= e;
    stop.abort();
  };
  const validUntil = expiresAt === undefined ? undefined : new Date(expiresAt * 1000);
  const granted = rightsKey(user);
  const check = () => {
    const now = new Date();
    if (validUntil && validUntil <= now) return end(errors.accessTokenExpired(validUntil, now));
    void api.store.user(user.id).then(
      (current) => {
        if (!current || rightsKey(current) !== granted) end(errors.staleStreamAuthorization());
      },
      () => undefined,
    );
  };
  const timer = setInterval(check, USER_RIGHTS_CHECK_INTERVAL_MS);
  timer.unref();
  return {
    error: () => revoked,
    stop: () => clearInterval(timer),
  };
}

/** What authorizes a user's streams: whether it is active, and its rights, in a canonical order. */
function rightsKey(user: UserRecord): string {
  if (user.isDeactivated) return "deactivated";
  return user.rights.map((r) => JSON.stringify(r)).sort().join("\n");
}
