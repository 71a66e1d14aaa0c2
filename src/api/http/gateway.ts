/**
 * The JSON gateway: one HTTP/1.1 handler that routes by `google.api.http` annotations, decodes
 * the request's JSON into the request message, calls the same service implementation the gRPC
 * port serves, and encodes the answer back. Two dialects: Canton's JSON Ledger API for `/v2`
 * (here) and Splice's for `/v0` and the registry (splice-gateway.ts). Server streams become
 * bounded JSON arrays (`limit`, `stream_idle_timeout_ms`, 413 past the list limit); their
 * WebSocket form, open-ended, is an upgrade on the same path (websocket-streams.ts).
 */
import { create, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { ConnectError, type HandlerContext } from "@connectrpc/connect";
import { RequestInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { errors, LedgerError } from "../../ledger/errors.js";
import { randomHex } from "../../ledger/ids.js";
import type { TemplateRegistry } from "../../ledger/registry.js";
import { toCantonJson } from "./canton-json.js";
import { decodeCantonRequest } from "./canton-request.js";
import { damlJsonCodec } from "./daml-json-codec.js";
import { HttpRefusal, jsCantonError, ledgerErrorOf } from "./js-canton-error.js";
import { binaryRequestField, hasBinaryResponse, readBinaryBody, sendBinaryResponse } from "./binary-body.js";
import type { CallContext } from "../context/index.js";
import { PAGE_WAIT } from "../services/ledger/page-wait.js";
import { BodyTooLarge, handlerContextOf, readBody, send } from "./http-io.js";
import { checkJsonContentType, JsonBodyError, parseJsonBody } from "./json-body.js";
import { allowedMethods, matchRoute, routesOf, sortRoutes, type Dialect, type Route } from "./route-table.js";
import { createSpliceHandler } from "./splice-gateway.js";
import { createWebSocketStreams } from "./websocket-streams.js";
import { isSplicePath, spliceAliases } from "./splice-routes.js";
import type { RequestTarget } from "./request-url.js";
import { AnswerBudget, type AnswerHold } from "./answer-budget.js";

type AnyImpl = Record<string, (req: unknown, ctx: unknown) => unknown>;

export interface GatewayOptions {
  /** Services with `google.api.http` annotations; `dialect` "splice" for the `/v0` and registry ones. */
  readonly services: readonly { readonly service: DescService; readonly impl: object; readonly dialect?: Dialect }[];
  readonly registry: TemplateRegistry;
  readonly listMaxElements: number;
  /** Bytes of JSON an array answer may reach (413 past it). */
  readonly listMaxBytes: number;
  /** Bytes of array answers held at once across requests (answer-budget.ts). */
  readonly listsMaxBytes: number;
  /** WebSocket streams that may wait for their request frame at once, in all and per user (waiting-sockets.ts). */
  readonly maxWaitingSockets: { readonly max: number; readonly maxPerUser: number };
  readonly maxBodyBytes: number;
  /** Limit of raw (application/octet-stream) bodies: DAR uploads, which outgrow JSON bodies. */
  readonly maxBinaryBodyBytes?: number;
  readonly log: Logger;
  /**
   * Canton's first step, run before the body is read or decoded: authenticate the caller of a
   * `/v2` route (a bad body of an unauthenticated caller is a 401, as in Canton).
   */
  /** The caller's user id (undefined for a public method). */
  readonly authenticate?: (route: Route, ctx: HandlerContext) => Promise<string | undefined>;
  /** Idle time that ends an open-ended stream when the request does not say (ms). */
  readonly defaultStreamIdleMs?: number;
}

export interface Gateway {
  /** `url`: the request's target, parsed (request-url.ts). */
  handle(req: IncomingMessage, res: ServerResponse, url: RequestTarget): void;
  /** Every route served, both dialects and all aliases (tests sweep them all). */
  readonly routes: readonly Route[];
  /** The HTTP server's `upgrade` handler: the WebSocket form of the `/v2` streams (websocket-streams.ts). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Ends every stream being collected and closes every WebSocket with 1001 (shutdown); resolves once they are closed. */
  abortStreams(): Promise<void>;
}

/** How a server stream is collected into an array: `limit` and `stream_idle_timeout_ms` from the query. */
interface StreamParams {
  readonly limit?: number;
  readonly idleMs?: number;
}

/** The stream parameters, or the text of Canton's 400 for a query parameter it cannot decode. */
function streamParamsOf(url: RequestTarget): StreamParams | string {
  const parsed: Record<string, number | undefined> = {};
  for (const name of ["limit", "stream_idle_timeout_ms"]) {
    const v = url.searchParams.get(name);
    if (v !== null && !/^\d+$/.test(v)) return `Invalid value for: query parameter ${name} (must be a non-negative integer, got ${JSON.stringify(v)})`;
    parsed[name] = v === null ? undefined : Number(v);
  }
  return { limit: parsed.limit, idleMs: parsed.stream_idle_timeout_ms };
}

/** What the Canton-dialect half needs per request. */
interface CantonCalls {
  readonly impls: ReadonlyMap<DescService, AnyImpl>;
  readonly daml: ReturnType<typeof damlJsonCodec>;
  /** Requests being served, aborted together by `abortStreams`. */
  readonly live: Set<CallContext>;
  readonly options: GatewayOptions;
  readonly answers: AnswerBudget;
}

export function createGateway(options: GatewayOptions): Gateway {
  const routes = routesFor(options.services);
  const impls = new Map<DescService, AnyImpl>(options.services.map((s) => [s.service, s.impl as AnyImpl]));
  const splice = createSpliceHandler({ impls, maxBodyBytes: options.maxBodyBytes, log: options.log });
  const calls: CantonCalls = { impls, daml: damlJsonCodec(options.registry), live: new Set(), options, answers: answerBudgetOf(options) };
  const sockets = createWebSocketStreams({
    routes,
    methodOf: (route) => (input, ctx) => impls.get(route.service)![route.method.localName](input, ctx) as AsyncIterable<unknown>,
    decode: (route, params, query, json) => decodeCantonRequest(route, params, query, json, calls.daml as never),
    authenticate: options.authenticate,
    maxWaitingSockets: options.maxWaitingSockets,
    maxPayloadBytes: options.maxBodyBytes,
    log: options.log,
  });
  return {
    routes,
    handle(req, res, url) {
      const method = req.method ?? "GET";
      // HEAD is served as GET; Node sends the headers without the body.
      const match = matchRoute(routes, method === "HEAD" ? "GET" : method, url.pathname);
      const spliceError = isSplicePath(url.pathname);
      if (match === undefined) return spliceError ? splice.notFound(res, method, url.pathname) : refuse(res, 404, "The requested resource could not be found.");
      if (match === "method-not-allowed") {
        res.setHeader("allow", allowedMethods(routes, url.pathname).join(", "));
        return spliceError ? splice.methodNotAllowed(res, method, url.pathname) : refuse(res, 405, "HTTP method not allowed.");
      }
      if (match === "bad-encoding") {
        const why = `a path parameter of ${url.pathname} is not valid percent-encoding`;
        return spliceError ? splice.badRequest(res, why) : refuse(res, 400, `Invalid value for: path parameter (${why})`);
      }
      if (match.route.dialect === "splice") return splice.handle(match.route, match.params, url, req, res);
      invoke(calls, match.route, match.params, url, req, res).catch((e: unknown) => sendError(res, e, options));
    },
    upgrade: (req, socket, head) => sockets.upgrade(req, socket, head),
    abortStreams() {
      for (const call of calls.live) call.abort(undefined);
      return sockets.closeAll();
    },
  };
}

/** Every annotated route of both dialects (Splice ones also under their aliases), most specific first. */
function routesFor(services: GatewayOptions["services"]): Route[] {
  const servicesOf = (d: Dialect) => services.filter((s) => (s.dialect ?? "canton") === d).map((s) => s.service);
  return sortRoutes([...routesOf(servicesOf("canton")), ...routesOf(servicesOf("splice"), { dialect: "splice", aliases: spliceAliases })]);
}

async function invoke(calls: CantonCalls, route: Route, params: string[], url: RequestTarget, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The context makes its abort controller only if a call asks for its signal or is aborted.
  const ctx = handlerContextOf(route, "canton-json", url.href, req);
  calls.live.add(ctx);
  // Only a client gone before the answer cancels the call (an abort builds a DOMException).
  res.on("close", () => res.writableFinished || ctx.abort(undefined));
  // An array answer holds its bytes from its first element until it has left for the socket, or
  // its client is gone; listened for before any await, since a client may leave at any point.
  const hold = route.method.methodKind === "server_streaming" ? holdUntilSent(calls.answers, res) : undefined;
  try {
    const user = await calls.options.authenticate?.(route, ctx);
    hold?.ownedBy(user ?? "");
    const decoded = await readInput(calls, route, params, url, req);
    const impl = calls.impls.get(route.service)![route.method.localName];
    const output = route.method.output as DescMessage;
    if (hold) {
      const items = await collect(calls.options, impl(decoded.input, ctx) as AsyncIterable<unknown>, decoded.stream, ctx, output, hold);
      sendJsonArray(res, items);
    } else {
      const result = await (impl(decoded.input, ctx) as Promise<unknown>);
      if (hasBinaryResponse(route)) sendBinaryResponse(res, route, result as Record<string, unknown>);
      else send(res, 200, toCantonJson(output, create(output, result as never)));
    }
  } catch (e) {
    hold?.release();
    throw e;
  } finally {
    calls.live.delete(ctx);
    // A stream's producers stop on the abort; a finished unary call has nothing left to cancel.
    if (route.method.methodKind === "server_streaming") ctx.abort(undefined);
  }
}

/** The budget of held answers; a user's share holds a quarter of it, and at least one whole answer. */
function answerBudgetOf(options: GatewayOptions): AnswerBudget {
  return new AnswerBudget(options.listsMaxBytes, Math.max(Math.floor(options.listsMaxBytes / 4), options.listMaxBytes));
}

function holdUntilSent(answers: AnswerBudget, res: ServerResponse): AnswerHold {
  const hold = answers.open();
  res.once("finish", hold.release);
  res.once("close", hold.release);
  return hold;
}

/** The request message from path, query and body; an HttpRefusal (400, 413, 415) for what cannot be decoded. */
async function readInput(calls: CantonCalls, route: Route, params: string[], url: RequestTarget, req: IncomingMessage): Promise<{ input: unknown; stream: StreamParams }> {
  const stream = route.method.methodKind === "server_streaming" ? streamParamsOf(url) : {};
  if (typeof stream === "string") throw new HttpRefusal(400, stream);
  let bodyJson: unknown;
  const binaryField = binaryRequestField(route);
  let binary: Uint8Array | undefined;
  if (binaryField) {
    try {
      binary = await readBinaryBody(req, calls.options.maxBinaryBodyBytes ?? calls.options.maxBodyBytes);
    } catch (e) {
      if (e instanceof JsonBodyError) throw new HttpRefusal(e.status, `Invalid value for: body (${e.message})`);
      throw e;
    }
  } else if (route.body !== "") {
    try {
      checkJsonContentType(req);
      const text = await readBody(req, calls.options.maxBodyBytes);
      bodyJson = text.trim() === "" ? {} : parseJsonBody(text);
    } catch (e) {
      if (e instanceof JsonBodyError) throw new HttpRefusal(e.status, `Invalid value for: body (${e.message})`);
      throw e;
    }
  }
  const input = decodeCantonRequest(route, params, url.searchParams, bodyJson, calls.daml as never) as Record<string, unknown>;
  if (binaryField && binary) input[binaryField.localName] = binary;
  return { input, stream };
}

/** Answers a request refused before decoding, as a JsCantonError. */
function refuse(res: ServerResponse, status: number, message: string): void {
  const { body } = new HttpRefusal(status, message).toJsCantonError(randomHex(8));
  send(res, status, body);
}

/**
 * A server stream as a bounded JSON array, each element's JSON text: ends at `limit`, after an
 * idle gap, or fails past the list limits (elements or bytes). Each element is serialized as it
 * arrives, between turns of the event loop, not the whole answer at once at the end.
 */
async function collect(options: GatewayOptions, stream: AsyncIterable<unknown>, params: StreamParams, call: CallContext, output: DescMessage, hold: AnswerHold): Promise<Buffer[]> {
  const { limit } = params;
  const idleMs = params.idleMs ?? options.defaultStreamIdleMs ?? 1000;
  const max = options.listMaxElements;
  const take = limit !== undefined && limit <= max ? limit : max + 1;
  // As bytes: the answer is held until the client reads it, once, not as text and then bytes.
  const items: Buffer[] = [];
  let bytes = 2;
  let waitingForPages = false;
  call.values.set(PAGE_WAIT, (waiting) => (waitingForPages = waiting));
  const it = stream[Symbol.asyncIterator]();
  try {
    while (items.length < take) {
      const next = await nextOrIdle(it.next(), idleMs, () => waitingForPages);
      if (next === "idle" || next.done) break;
      const item = Buffer.from(JSON.stringify(toCantonJson(output, create(output, next.value as never))));
      bytes += item.length + 1;
      if (bytes > options.listMaxBytes) throw errors.listTooLarge(options.listMaxBytes);
      if (!hold.take(item.length + 1)) throw errors.answersBackpressure(options.listsMaxBytes);
      items.push(item);
    }
  } finally {
    call.abort(undefined);
    void it.return?.(undefined)?.catch(() => undefined);
  }
  if (items.length > max) throw errors.tooManyElements(max);
  return items;
}

/** How long an array answer's stream may wait for room on the node's page budget before it is refused. */
const PAGE_WAIT_MS = 30_000;

/**
 * `next`, or "idle" once `idleMs` pass without it. A stream waiting for room on the page budget is
 * slow, not idle: the wait goes on, and past PAGE_WAIT_MS the answer is refused as backpressure.
 */
async function nextOrIdle<T>(next: Promise<T>, idleMs: number, waitingForPages: () => boolean): Promise<T | "idle"> {
  const started = Date.now();
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<"idle">((resolve) => (timer = setTimeout(() => resolve("idle"), idleMs)));
    const r = await Promise.race([next, idle]);
    clearTimeout(timer);
    if (r !== "idle" || !waitingForPages()) return r;
    const waited = Date.now() - started;
    if (waited > PAGE_WAIT_MS) throw errors.pagesBackpressure(waited);
  }
}

/**
 * The array, and the socket closed if the client stops reading it for a minute, or reads it slower
 * than MIN_READ_BYTES_PER_S on the whole: an answer waits in memory until it is read, and a client
 * that never reads, or takes 16 bytes every 20 s (as a hostile review did), would hold it for good.
 */
function sendJsonArray(res: ServerResponse, items: readonly Buffer[]): void {
  const length = items.reduce((n, item) => n + item.length, 2 + Math.max(0, items.length - 1));
  res.setTimeout(STALLED_READER_MS, () => res.destroy());
  const deadline = setTimeout(() => res.destroy(), sendDeadlineMs(length));
  deadline.unref();
  const done = () => clearTimeout(deadline);
  res.once("finish", done);
  res.once("close", done);
  res.writeHead(200, { "content-type": "application/json", "content-length": length });
  // One write to the socket for the whole answer (`end` uncorks).
  res.cork();
  res.write("[");
  items.forEach((item, i) => {
    if (i > 0) res.write(",");
    res.write(item);
  });
  res.end("]");
}

const STALLED_READER_MS = 60_000;
/** The slowest a client may read an array answer on the whole, once the first minute is over. */
export const MIN_READ_BYTES_PER_S = 64 * 1024;

/** How long an answer of `length` bytes may take to leave: a minute, or its length at the minimum rate. */
export function sendDeadlineMs(length: number): number {
  return Math.max(STALLED_READER_MS, Math.ceil((length / MIN_READ_BYTES_PER_S) * 1000));
}

/** A failed Canton-dialect request as Canton's JsCantonError (413 for an oversized body or list). */
function sendError(res: ServerResponse, e: unknown, options: GatewayOptions): void {
  if (res.headersSent) return void res.destroy();
  if (e instanceof BodyTooLarge) return refuse(res, 413, `Request entity too large: the body exceeds ${e.limit} bytes`);
  if (e instanceof HttpRefusal) {
    const refused = e.toJsCantonError(randomHex(8));
    return send(res, refused.status, refused.body);
  }
  const err = ledgerErrorOf(e);
  if (!(e instanceof LedgerError) && err.code === "LEDGER_API_INTERNAL_ERROR" && !(e as { cause?: unknown })?.cause) {
    options.log.error({ err: e }, "unhandled error in JSON gateway");
  }
  const status = err.code === "HTTP_LIST_TOO_LARGE" ? 413 : undefined;
  const { status: derived, body } = jsCantonError(err, correlationIdOf(e) ?? randomHex(8));
  send(res, status ?? derived, body);
}

/** The submission id a command error carries (Canton reports it as the correlation id). */
function correlationIdOf(e: unknown): string | undefined {
  return e instanceof ConnectError ? e.findDetails(RequestInfoSchema)[0]?.requestId || undefined : undefined;
}
