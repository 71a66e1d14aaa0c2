/**
 * The Splice half of the JSON gateway: a routed `/v0` or registry request is decoded from Splice
 * JSON into the request message, handed to the same service implementation the gRPC port serves,
 * and its answer (or error) encoded back in Splice's dialect.
 */
import { create, type DescMessage, type DescService } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { handlerContextOf, readBody, send } from "./http-io.js";
import { checkJsonContentType, JsonBodyError, parseJsonBody } from "./json-body.js";
import type { Route } from "./route-table.js";
import { spliceError, spliceErrorOf } from "./splice-error.js";
import { fromSpliceJson, toSpliceJson } from "./splice-json.js";
import { spliceRequestJsonOf } from "./splice-request-json.js";
import type { RequestTarget } from "./request-url.js";

type AnyMethod = ((req: unknown, ctx: unknown) => unknown) & { readonly authorize?: (ctx: HandlerContext) => Promise<void> };
type AnyImpl = Record<string, AnyMethod>;

export interface SpliceHandlerOptions {
  readonly impls: ReadonlyMap<DescService, object>;
  readonly maxBodyBytes: number;
  readonly log: Logger;
}

export interface SpliceHandler {
  handle(route: Route, params: string[], url: RequestTarget, req: IncomingMessage, res: ServerResponse): void;
  notFound(res: ServerResponse, method: string, path: string): void;
  methodNotAllowed(res: ServerResponse, method: string, path: string): void;
  badRequest(res: ServerResponse, why: string): void;
}

export function createSpliceHandler(options: SpliceHandlerOptions): SpliceHandler {
  async function invoke(route: Route, params: string[], url: RequestTarget, req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The context makes its abort controller only if the call asks for its signal or is aborted.
    const ctx = handlerContextOf(route, "splice-json", url.href, req);
    // Only a client gone before the answer cancels the call (an abort builds a DOMException).
    res.on("close", () => res.writableFinished || ctx.abort(undefined));
    const impl = (options.impls.get(route.service) as AnyImpl)[route.method.localName];
    // Splice's order: authenticate, authorize, then validate (a bad body of a bad caller is a 401/403).
    await impl.authorize?.(ctx);
    let body: unknown;
    if (route.body !== "") {
      try {
        checkJsonContentType(req);
        const text = await readBody(req, options.maxBodyBytes);
        if (text.trim() !== "") body = parseJsonBody(text);
      } catch (e) {
        if (!(e instanceof JsonBodyError)) throw e;
        const r = spliceError(e.status, `Invalid request: ${e.message}`);
        send(res, r.status, r.body);
        return;
      }
    }
    const input = fromSpliceJson(route.method.input, spliceRequestJsonOf(route, params, url.searchParams, body));
    const output = route.method.output as DescMessage;
    const result = await (impl(input, ctx) as Promise<unknown>);
    send(res, 200, toSpliceJson(output, create(output, result as never)));
  }

  return {
    handle(route, params, url, req, res) {
      invoke(route, params, url, req, res).catch((e: unknown) => {
        if (res.headersSent) return res.destroy();
        const r = spliceErrorOf(e, route.method.output);
        if (r.unexpected !== undefined) options.log.error({ err: r.unexpected }, "unhandled error in the Splice JSON gateway");
        send(res, r.status, r.body);
      });
    },
    notFound(res, method, path) {
      const r = spliceError(404, `The requested resource could not be found: ${method} ${path}`);
      send(res, r.status, r.body);
    },
    methodNotAllowed(res, method, path) {
      const r = spliceError(405, `HTTP method ${method} is not allowed on ${path}`);
      send(res, r.status, r.body);
    },
    badRequest(res, why) {
      const r = spliceError(400, `Invalid request: ${why}`);
      send(res, r.status, r.body);
    },
  };
}
