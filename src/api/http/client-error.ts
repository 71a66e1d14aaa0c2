/**
 * Answers requests node:http refuses before routing (oversized headers, malformed HTTP), which it
 * would otherwise close with an empty 431/400: the body is the error shape of the API the request
 * line names — Splice's `{"error"}` on `/v0`, `/api/validator` and the registry, Canton's
 * JsCantonError elsewhere. So does an HTTP/1.1 request without `Host`, which node:http would
 * answer with an empty 400 (the server leaves that check to `refuseWithoutHost`).
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { HttpRefusal } from "./js-canton-error.js";
import { spliceError } from "./splice-error.js";
import { isSplicePath } from "./splice-routes.js";

type ClientError = Error & { readonly code?: string; readonly rawPacket?: Buffer };

export function answerClientError(err: ClientError, socket: Duplex): void {
  if (!socket.writable || err.code === "ECONNRESET") return void socket.destroy();
  const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const message = status === 431 ? "Request header fields too large" : `Bad request: ${err.message}`;
  const text = JSON.stringify(errorBody(pathOf(err.rawPacket), status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** The path of the request line in the bytes node:http had read, or "" if there is none. */
function pathOf(raw: Buffer | undefined): string {
  return pathOfLine(raw?.subarray(0, 2048).toString("latin1").split("\r\n", 1)[0] ?? "");
}

function pathOfLine(line: string): string {
  return /^[A-Z]+ (\/[^ ?]*)/.exec(line)?.[1] ?? "";
}

export const MISSING_HOST = "Bad request: missing the required Host header";

/**
 * RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without `Host`. True if `req`
 * was one and has been answered (and its connection is closing).
 */
export function refuseWithoutHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.httpVersion !== "1.1" || req.headers.host !== undefined) return false;
  const text = JSON.stringify(errorBody(pathOfLine(`${req.method} ${req.url ?? ""}`), 400, MISSING_HOST));
  res.writeHead(400, { "content-type": "application/json", "content-length": Buffer.byteLength(text), connection: "close" });
  res.end(text);
  return true;
}

function errorBody(path: string, status: number, message: string): unknown {
  return isSplicePath(path) ? spliceError(status, message).body : new HttpRefusal(status, message).toJsCantonError().body;
}
