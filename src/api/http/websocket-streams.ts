/**
 * The WebSocket form of the JSON Ledger API's streams, on the HTTP port as in Canton 3.4: an
 * upgrade on the path of a server-streaming POST route (`/v2/updates`, `/v2/updates/flats`,
 * `/v2/updates/trees`, `/v2/commands/completions`, `/v2/state/active-contracts`) serves that
 * stream, one JSON frame per item (websocket-session.ts).
 *
 * The caller is authenticated before the upgrade is accepted (websocket-handshake.ts for where
 * the token comes from): a missing or invalid token is refused with the HTTP status and
 * JsCantonError the POST route answers. Authorization is the service's, as for the POST form.
 * Each socket calls the same service implementation, so it takes one of the caller's stream
 * slots (stream-limits.ts) for as long as it is open. On shutdown every socket closes with 1001.
 */
import { createHandlerContext, type HandlerContext } from "@connectrpc/connect";
import type { DescMessage } from "@bufbuild/protobuf";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { WebSocketServer, type WebSocket } from "ws";
import { Category, LedgerError } from "../../ledger/errors.js";
import { randomHex } from "../../ledger/ids.js";
import { requestHeaders } from "../context/index.js";
import { HttpRefusal, jsCantonError, ledgerErrorOf } from "./js-canton-error.js";
import { matchRoute, type Route } from "./route-table.js";
import { parseRequestUrl, UNPARSABLE_TARGET, type RequestTarget } from "./request-url.js";
import { authorizationOf, chooseSubprotocol, refuseUpgrade } from "./websocket-handshake.js";
import { CLOSE_GOING_AWAY, closeIfOpen, serveStreamSession } from "./websocket-session.js";
import { WaitingSockets } from "./waiting-sockets.js";
import { MISSING_HOST } from "./client-error.js";
import { extend } from "../../util/extend.js";

/** A stream method of a service implementation. */
export type StreamMethod = (input: unknown, ctx: HandlerContext) => AsyncIterable<unknown>;

export interface WebSocketStreamsOptions {
  /** The gateway's routes; only Canton-dialect server-streaming POST routes upgrade. */
  readonly routes: readonly Route[];
  readonly methodOf: (route: Route) => StreamMethod;
  /** The request message from path, query and the frame's JSON (the POST form's decoder). */
  readonly decode: (route: Route, params: readonly string[], query: URLSearchParams, json: unknown) => unknown;
  /** The gateway's first step (token and user), run before the upgrade is accepted. */
  /** The caller's user id (undefined for a public method). */
  readonly authenticate?: (route: Route, ctx: HandlerContext) => Promise<string | undefined>;
  /** Sockets that may wait for their request frame at once, in all and per user (waiting-sockets.ts). */
  readonly maxWaitingSockets: { readonly max: number; readonly maxPerUser: number };
  /** Largest request frame accepted (ws closes with 1009 past it). */
  readonly maxPayloadBytes: number;
  /** Unsent bytes a socket may hold before the stream is held back (default 1 MiB). */
  readonly highWaterBytes?: number;
  readonly log: Logger;
}

export interface WebSocketStreams {
  /** The HTTP server's `upgrade` handler. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Refuses new sockets and closes the open ones with 1001; resolves when all are closed. */
  closeAll(): Promise<void>;
}

export const DEFAULT_HIGH_WATER_BYTES = 1024 * 1024;
/** How long a closing socket may take to answer the close before it is cut. */
const CLOSE_GRACE_MS = 2000;


export function createWebSocketStreams(options: WebSocketStreamsOptions): WebSocketStreams {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes, handleProtocols: (offered) => chooseSubprotocol(offered) });
  const open = new Map<WebSocket, AbortController>();
  let closing = false;
  const waiting = new WaitingSockets(options.maxWaitingSockets.max, options.maxWaitingSockets.maxPerUser);
  return {
    upgrade(req, socket, head) {
      socket.on("error", () => socket.destroy());
      const url = requestUrlOf(req);
      if (!url) return refuse(socket, UNPARSABLE_TARGET);
      // RFC 6455 §4.1 and RFC 9112 §3.2 (the server no longer leaves this check to node:http).
      if (req.headers.host === undefined) return refuse(socket, new HttpRefusal(400, MISSING_HOST));
      const match = matchRoute(options.routes, "POST", url.pathname);
      if (typeof match !== "object" || !isStreamRoute(match.route)) return refuse(socket, new HttpRefusal(404, "The requested resource could not be found."));
      if (closing) return refuse(socket, new HttpRefusal(503, "The server is shutting down."));
      const abort = new AbortController();
      const ctx = wsHandlerContext(match.route, url, req, abort.signal);
      void admit(options, match.route, ctx).then((admitted) => {
        if ("refusal" in admitted) return refuseUpgrade(socket, admitted.refusal.status, admitted.refusal.body);
        if (closing) return refuse(socket, new HttpRefusal(503, "The server is shutting down."));
        // Sockets take a waiting slot once authenticated: slots taken before let anonymous
        // upgrades, held by a slow identity provider, lock every user out (a hostile review).
        // Those wait on the HTTP server's connection limit instead.
        if (socket.destroyed) return; // gone while it was authenticated: its close was already heard
        const slot = waiting.enter();
        if (!slot) return refuse(socket, new HttpRefusal(503, `Too many WebSocket streams are waiting for their request frame (${waiting.max}); retry shortly.`));
        socket.once("close", slot.release);
        if (admitted.user !== undefined && !slot.assign(admitted.user)) {
          const cause = `Too many WebSocket streams of user ${admitted.user} are waiting for their request frame (${waiting.maxPerUser}); send their requests first.`;
          return refuseUpgrade(socket, 429, jsCantonError(new LedgerError({ code: "MAXIMUM_NUMBER_OF_STREAMS", category: Category.ContentionOnSharedResources, cause }), randomHex(8)).body);
        }
        wss.handleUpgrade(req, socket, head, (ws) => {
          // A protocol error (invalid UTF-8, a frame past maxPayload, an unmasked or reserved
          // frame) is this socket's alone: ws closes it with 1002, 1007 or 1009 right after this
          // event. Unheard, the event ended the process (a hostile review).
          ws.on("error", (e) => {
            options.log.debug({ err: e }, "JSON API WebSocket protocol error");
            abort.abort();
          });
          ws.once("message", () => {
            slot.release();
            capInbound(socket, ws);
          });
          open.set(ws, abort);
          ws.once("close", () => open.delete(ws));
          const session = { call: options.methodOf(match.route), decode: (json: unknown) => options.decode(match.route, match.params, url.searchParams, json) };
          void serveStreamSession(ws, extend(session, {
            output: match.route.method.output as DescMessage,
            ctx,
            abort,
            highWaterBytes: options.highWaterBytes ?? DEFAULT_HIGH_WATER_BYTES,
            log: options.log,
          }));
        });
      });
    },
    closeAll() {
      closing = true;
      return Promise.all([...open].map(([ws, abort]) => closeGoingAway(ws, abort))).then(() => undefined);
    },
  };
}

/**
 * The request's URL. Leading slashes collapse into one: the wallet SDK joins its base URL (which
 * `URL` prints with a trailing slash) and the channel path into `//v2/updates`, which Canton's
 * router takes as `/v2/updates`.
 */
function requestUrlOf(req: IncomingMessage): RequestTarget | undefined {
  return parseRequestUrl((req.url ?? "/").replace(/^\/+/, "/"));
}

/**
 * Data bytes a client may send after its request frame. A second frame ends the session, but ws
 * holds an unfinished one's fragments up to maxPayload first, so 200 sockets each sending 3.9 MiB
 * of a frame never finished held 590 MB (a hostile review). Pings and pongs are given back, so a
 * client that pings to keep a stream open keeps it for good, and one trickling a frame does not.
 */
export const AFTER_REQUEST_MAX_BYTES = 64 * 1024;
/** A masked control frame's header: 2 bytes and the 4-byte mask (a client's payload is under 126 bytes). */
const CONTROL_HEADER_BYTES = 6;

function capInbound(socket: Duplex, ws: WebSocket): void {
  let bytes = 0;
  const control = (payload: Buffer) => void (bytes -= CONTROL_HEADER_BYTES + payload.length);
  ws.on("ping", control);
  ws.on("pong", control);
  socket.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > AFTER_REQUEST_MAX_BYTES) ws.terminate();
  });
}

function isStreamRoute(route: Route): boolean {
  return route.dialect === "canton" && route.method.methodKind === "server_streaming";
}

function refuse(socket: Duplex, refusal: HttpRefusal): void {
  const { status, body } = refusal.toJsCantonError(randomHex(8));
  refuseUpgrade(socket, status, body);
}

/** Authenticates before the upgrade: the caller's user id, or the refusal (status and JsCantonError). */
async function admit(options: WebSocketStreamsOptions, route: Route, ctx: HandlerContext): Promise<{ user: string | undefined } | { refusal: { status: number; body: unknown } }> {
  try {
    return { user: await options.authenticate?.(route, ctx) };
  } catch (e) {
    if (e instanceof HttpRefusal) return { refusal: e.toJsCantonError(randomHex(8)) };
    return { refusal: jsCantonError(ledgerErrorOf(e), randomHex(8)) };
  }
}

/**
 * The handler context the service sees: the request's headers with the token as `authorization`
 * (from the `jwt.token.` subprotocol when sent), and without the subprotocol header that carries it.
 */
function wsHandlerContext(route: Route, url: RequestTarget, req: IncomingMessage, signal: AbortSignal): HandlerContext {
  const requestHeader = requestHeaders(req.headers);
  requestHeader.delete("sec-websocket-protocol");
  const authorization = authorizationOf(req);
  if (authorization !== undefined) requestHeader.set("authorization", authorization);
  return createHandlerContext({
    service: route.service,
    method: route.method,
    protocolName: "canton-json-websocket",
    requestMethod: req.method ?? "GET",
    url: url.href,
    requestSignal: signal,
    requestHeader,
  });
}

/** Cancels the stream and closes with 1001; cuts the socket if the client does not answer in time. */
function closeGoingAway(ws: WebSocket, abort: AbortController): Promise<void> {
  abort.abort();
  return new Promise((resolve) => {
    if (ws.readyState === ws.CLOSED) return resolve();
    const timer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    ws.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    closeIfOpen(ws, CLOSE_GOING_AWAY, "server shutting down");
  });
}
