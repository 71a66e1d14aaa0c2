/**
 * One WebSocket stream after the handshake, as Canton's JSON API serves it: the client sends one
 * JSON text frame, the same body the POST form takes; the server sends every item of the stream
 * as its own JSON text frame, encoded as the items of the POST form's array, for as long as the
 * stream runs (no idle cut-off, no list limit).
 *
 * Ends:
 * - the stream ends (an `endInclusive` reached): close 1000;
 * - anything refused (bad frame, a second frame, a binary frame, no frame within
 *   REQUEST_FRAME_TIMEOUT_MS, an error the service raises):
 *   one text frame with the JsCantonError the POST form would answer, then close 1011. Canton
 *   delivers such errors in-band as a frame of the stream; the close code is ours: 1011 lets a
 *   client that only looks at the close tell an error from a finished stream;
 * - the client closes: the stream is cancelled; server shutdown: close 1001 (websocket-streams.ts).
 *
 * Backpressure: a frame is only sent once the socket's buffer is below `highWaterBytes`;
 * past it, pulling from the stream waits until the last frame has been flushed.
 */
import { create, type DescMessage } from "@bufbuild/protobuf";
import { ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Logger } from "pino";
import type { RawData, WebSocket } from "ws";
import { RequestInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { LedgerError } from "../../ledger/errors.js";
import { randomHex } from "../../ledger/ids.js";
import { toCantonJson } from "./canton-json.js";
import { HttpRefusal, jsCantonError, ledgerErrorOf, type JsCantonError } from "./js-canton-error.js";
import { JsonBodyError, parseJsonBody } from "./json-body.js";

/** Close codes (RFC 6455 §7.4.1). */
export const CLOSE_NORMAL = 1000;
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_ERROR = 1011;

export interface StreamSession {
  /** The service method: the same implementation the POST form and the gRPC port call. */
  readonly call: (input: unknown, ctx: HandlerContext) => AsyncIterable<unknown>;
  /** The request message from the frame's parsed JSON; throws HttpRefusal for what does not fit. */
  readonly decode: (json: unknown) => unknown;
  readonly output: DescMessage;
  readonly ctx: HandlerContext;
  /** Aborted when the session ends, however it ends; cancels the stream. */
  readonly abort: AbortController;
  readonly highWaterBytes: number;
  readonly log: Logger;
}

const STOPPED = Symbol("stopped");

/** Serves one stream on an open socket; resolves once the session is over. */
export async function serveStreamSession(ws: WebSocket, session: StreamSession): Promise<void> {
  ws.once("close", () => session.abort.abort());
  try {
    const frame = await firstFrame(ws, session);
    if (frame === STOPPED) return;
    const input = session.decode(requestJsonOf(frame.data, frame.isBinary));
    if (await pump(ws, session, session.call(input, session.ctx))) closeIfOpen(ws, CLOSE_NORMAL, "");
  } catch (e) {
    fail(ws, session, e);
  } finally {
    session.abort.abort();
  }
}

interface Frame {
  readonly data: RawData;
  readonly isBinary: boolean;
}

/**
 * How long an open socket may wait before sending its request frame. A socket holds no stream
 * slot until then (the slot is taken when the stream starts), so without a deadline one user
 * could hold any number of sockets, and file descriptors, open by never asking for anything.
 */
export const REQUEST_FRAME_TIMEOUT_MS = 10_000;

/** The request frame; any later frame is a protocol error that ends the session. */
function firstFrame(ws: WebSocket, session: StreamSession): Promise<Frame | typeof STOPPED> {
  return new Promise((resolve) => {
    let received = false;
    const late = setTimeout(() => {
      fail(ws, session, new HttpRefusal(408, `Invalid value for: body (no request frame within ${REQUEST_FRAME_TIMEOUT_MS / 1000} s of the upgrade)`));
    }, REQUEST_FRAME_TIMEOUT_MS);
    ws.on("message", (data, isBinary) => {
      if (!received) {
        received = true;
        clearTimeout(late);
        return resolve({ data, isBinary });
      }
      fail(ws, session, new HttpRefusal(400, "Invalid value for: body (a stream takes exactly one request frame; a second frame was sent)"));
    });
    session.abort.signal.addEventListener(
      "abort",
      () => {
        clearTimeout(late);
        resolve(STOPPED);
      },
      { once: true },
    );
  });
}

/** The frame's JSON, parsed as strictly as a POST body (an empty frame is `{}`, as an empty body is). */
function requestJsonOf(data: RawData, isBinary: boolean): unknown {
  if (isBinary) throw new HttpRefusal(400, "Invalid value for: body (binary frames are not accepted: send the request as one JSON text frame)");
  const text = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)).toString("utf8");
  try {
    return text.trim() === "" ? {} : parseJsonBody(text);
  } catch (e) {
    if (e instanceof JsonBodyError) throw new HttpRefusal(400, `Invalid value for: body (${e.message})`);
    throw e;
  }
}

/** Sends every item as a frame; true when the stream ended by itself, false when the session was stopped. */
async function pump(ws: WebSocket, session: StreamSession, stream: AsyncIterable<unknown>): Promise<boolean> {
  const { output, abort, highWaterBytes } = session;
  const it = stream[Symbol.asyncIterator]();
  const stopped = new Promise<typeof STOPPED>((resolve) => abort.signal.addEventListener("abort", () => resolve(STOPPED), { once: true }));
  try {
    for (;;) {
      const pending = it.next();
      pending.catch(() => undefined); // a rejection after a stop is nobody's to handle
      const next = await Promise.race([pending, stopped]);
      if (next === STOPPED) return false;
      if (next.done) return true;
      const text = JSON.stringify(toCantonJson(output, create(output, next.value as never)));
      if ((await sendFrame(ws, text, highWaterBytes, stopped)) === STOPPED) return false;
    }
  } finally {
    abort.abort();
    void it.return?.(undefined)?.catch(() => undefined);
  }
}

/**
 * Sends one frame; while the socket holds more than `highWaterBytes` unsent, waits until this
 * frame (the last one queued) has been written out, so a slow reader holds the stream back
 * instead of filling memory.
 */
async function sendFrame(ws: WebSocket, text: string, highWaterBytes: number, stopped: Promise<typeof STOPPED>): Promise<void | typeof STOPPED> {
  const flushed = new Promise<void>((resolve) => ws.send(text, () => resolve()));
  if (ws.bufferedAmount > highWaterBytes) return Promise.race([flushed, stopped]);
}

/** Ends the session with the error's JsCantonError frame and close 1011 (if the socket is still open). */
function fail(ws: WebSocket, session: StreamSession, e: unknown): void {
  session.abort.abort();
  if (ws.readyState !== ws.OPEN) return;
  const body = errorBodyOf(e, session.log);
  ws.send(JSON.stringify(body));
  closeIfOpen(ws, CLOSE_ERROR, body.code);
}

/** The JsCantonError the POST form would answer for the same error. */
function errorBodyOf(e: unknown, log: Logger): JsCantonError {
  if (e instanceof HttpRefusal) return e.toJsCantonError(randomHex(8)).body;
  const err = ledgerErrorOf(e);
  if (!(e instanceof LedgerError) && err.code === "LEDGER_API_INTERNAL_ERROR" && !(e as { cause?: unknown })?.cause) {
    log.error({ err: e }, "unhandled error in a JSON API WebSocket stream");
  }
  const correlationId = e instanceof ConnectError ? e.findDetails(RequestInfoSchema)[0]?.requestId : undefined;
  return jsCantonError(err, correlationId || randomHex(8)).body;
}

/** Closes with a code and a reason (cut to the 123 bytes a close frame allows). */
export function closeIfOpen(ws: WebSocket, code: number, reason: string): void {
  if (ws.readyState === ws.OPEN) ws.close(code, Buffer.from(reason).subarray(0, 123).toString());
}
