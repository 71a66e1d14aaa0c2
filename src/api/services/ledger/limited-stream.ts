/**
 * A stream method's body run inside one of the caller's stream slots (stream-limits.ts), and for
 * as long as the caller stays authorized (stream-authorizations.ts): a revoked authorization ends
 * the stream with its error. Without this, a revoked user kept reading a party's ledger for as long
 * as its socket stayed open.
 */
import type { HandlerContext } from "@connectrpc/connect";
import type { LedgerError } from "../../../ledger/errors.js";
import type { PageHold } from "../../../ledger/stream-page-budget.js";
import { authenticate } from "./authenticate.js";
import type { LedgerApi } from "./ledger-api.js";

/**
 * Runs a stream body inside a slot of the caller's: authenticated first, released however it ends.
 * The body gets the signal to stop by: the call's, also aborted when the authorization is revoked;
 * and the stream's hold on the node's page budget, for its store reads (stream-page-budget.ts).
 */
export async function* limitedStream<T>(api: LedgerApi, ctx: HandlerContext, body: (signal: AbortSignal, pages: PageHold) => AsyncIterable<T>): AsyncGenerator<T> {
  const token = await api.verifier.verify(ctx.requestHeader.get("authorization"));
  const user = await authenticate(api, ctx);
  const release = api.streams.acquire(user.id, `${ctx.service.typeName}/${ctx.method.name}`);
  const stop = new AbortController();
  const onCallEnd = () => stop.abort();
  ctx.signal.addEventListener("abort", onCallEnd, { once: true });
  let revoked: LedgerError | undefined;
  const unwatch = api.streamAuthorizations.watch(user, token.expiresAt, (e) => {
    revoked ??= e;
    stop.abort();
  });
  const pages = api.streamPages.open(user.id);
  const it = body(stop.signal, pages)[Symbol.asyncIterator]();
  try {
    for (;;) {
      // A revoked authorization aborts the body's signal, which ends whatever it waits for.
      let next: IteratorResult<T>;
      try {
        next = await it.next();
      } catch (e) {
        throw revoked ?? e;
      }
      if (revoked) throw revoked;
      if (next.done) return;
      yield next.value;
    }
  } finally {
    unwatch();
    ctx.signal.removeEventListener("abort", onCallEnd);
    stop.abort();
    void it.return?.(undefined)?.catch(() => undefined);
    pages.release();
    release();
  }
}
