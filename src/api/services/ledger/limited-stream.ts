/**
 * A stream method's body run inside one of the caller's stream slots (stream-limits.ts), and for
 * as long as the caller stays authorized (stream-authorizations.ts): a revoked authorization ends
 * the stream with its error. Without this, a revoked user kept reading a party's ledger for as long
 * as its socket stayed open.
 */
import type { HandlerContext } from "@connectrpc/connect";
import { authorizationHeader } from "../call-token.js";
import { PAGE_WAIT } from "./page-wait.js";
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
  const token = await api.verifier.verify(authorizationHeader(ctx));
  const user = await authenticate(api, ctx);
  const release = api.streams.acquire(user.id, `${ctx.service.typeName}/${ctx.method.name}`);
  const stop = new AbortController();
  let revoked: LedgerError | undefined;
  const pages = api.streamPages.open(user.id, ctx.values.get(PAGE_WAIT));
  const it = body(stop.signal, pages)[Symbol.asyncIterator]();
  // The body and its page stop at once when the call ends or the stream's authorization goes: a
  // transport may never resume a stream its client stopped reading (connect-node's write waits for
  // a drain that a reset stream never sends), and then this generator's finally never runs. A
  // revoked stream's client gets the error when it reads on.
  const stopBody = () => {
    stop.abort();
    pages.close();
    void it.return?.(undefined)?.catch(() => undefined);
  };
  // The slot goes only with the call: a stream stopped so stays counted until its transport ends.
  const end = () => {
    stopBody();
    release();
  };
  ctx.signal.addEventListener("abort", end, { once: true });
  const unwatch = api.streamAuthorizations.watch(user, token.expiresAt, (e) => {
    revoked ??= e;
    stopBody();
  });
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
    ctx.signal.removeEventListener("abort", end);
    end();
  }
}
