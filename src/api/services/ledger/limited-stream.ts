/** A stream method's body run inside one of the caller's stream slots (stream-limits.ts). */
import type { HandlerContext } from "@connectrpc/connect";
import { authenticate } from "./authenticate.js";
import type { LedgerApi } from "./ledger-api.js";

/** Runs a stream body inside a slot of the caller's: authenticated first, released however it ends. */
export async function* limitedStream<T>(api: LedgerApi, ctx: HandlerContext, body: () => AsyncIterable<T>): AsyncGenerator<T> {
  const user = await authenticate(api, ctx);
  const release = api.streams.acquire(user.id, `${ctx.service.typeName}/${ctx.method.name}`);
  try {
    yield* body();
  } finally {
    release();
  }
}
