/**
 * What a call's context gives once, asked for again in the same call: the JSON gateways run a
 * method's authentication before they read its body, and the method then asks for its caller.
 * Keyed by the context, so it dies with the call; a rejection is the answer to every ask.
 */
import type { HandlerContext } from "@connectrpc/connect";

export function oncePerCall<T>(): (ctx: HandlerContext, find: () => Promise<T>) => Promise<T> {
  const found = new WeakMap<HandlerContext, Promise<T>>();
  return (ctx, find) => {
    let answer = found.get(ctx);
    if (!answer) found.set(ctx, (answer = find()));
    return answer;
  };
}
