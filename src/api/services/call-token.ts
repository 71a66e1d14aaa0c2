/**
 * The caller's `authorization` header, which every call reads. Building a context's Web Headers
 * for that one field cost the event loop 1–2 µs a call, so a context may offer `authorization()`,
 * giving what `requestHeader.get("authorization")` would without building them: the context our
 * own transports hand over does (src/api/context/). Other contexts (Connect's) are read through
 * their Headers. The services know no transport; this is a capability a context may have.
 */
import type { HandlerContext } from "@connectrpc/connect";

interface OffersAuthorization {
  authorization(): string | null;
}

function offersAuthorization(ctx: HandlerContext): ctx is HandlerContext & OffersAuthorization {
  return typeof (ctx as Partial<OffersAuthorization>).authorization === "function";
}

export function authorizationHeader(ctx: HandlerContext): string | null {
  return offersAuthorization(ctx) ? ctx.authorization() : ctx.requestHeader.get("authorization");
}
