/**
 * Answers requests node:http refuses before routing (oversized headers, malformed HTTP), which it
 * would otherwise close with an empty 431/400: the body is the error shape of the API the request
 * line names — Splice's `{"error"}` on `/v0`, `/api/validator` and the registry, Canton's
 * JsCantonError elsewhere.
 */
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { HttpRefusal } from "./js-canton-error.js";
import { spliceError } from "./splice-error.js";
import { isSplicePath } from "./splice-routes.js";

type ClientError = Error & { readonly code?: string; readonly rawPacket?: Buffer };

export function answerClientError(err: ClientError, socket: Duplex): void {
  if (!socket.writable || err.code === "ECONNRESET") return void socket.destroy();
  const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const message = status === 431 ? "Request header fields too large" : `Bad request: ${err.message}`;
  const body = isSplicePath(pathOf(err.rawPacket)) ? spliceError(status, message).body : new HttpRefusal(status, message).toJsCantonError().body;
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** The path of the request line in the bytes node:http had read, or "" if there is none. */
function pathOf(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 2048).toString("latin1").split("\r\n", 1)[0] ?? "";
  return /^[A-Z]+ (\/[^ ?]*)/.exec(line)?.[1] ?? "";
}
