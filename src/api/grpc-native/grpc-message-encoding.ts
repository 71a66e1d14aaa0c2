/**
 * `grpc-message` as the gRPC HTTP/2 spec writes it. connect-node percent-encodes the whole status
 * message (encodeURIComponent), so `,` and `:` travel as `%2C`/`%3A`; @grpc/grpc-js clients decode
 * with decodeURI, which leaves those escapes in place, and Canton-style messages
 * ("CODE(8,abc): cause") reach them garbled. The spec encodes only what is not space or visible
 * ASCII, and `%` (Percent-Byte-Unencoded = %x20-24 / %x26-7E); every conforming client — grpc-js's
 * decodeURI included — decodes that form exactly.
 *
 * Without forking connect: `withSpecGrpcMessage` wraps the Node HTTP/2 response that
 * connect-node's adapter writes to and re-encodes the header as it goes out.
 */
import type { Http2ServerRequest, Http2ServerResponse, OutgoingHttpHeaders } from "node:http2";

const HEADER = "grpc-message";

/** The spec's percent-encoding of a status message (UTF-8, then %XX for bytes outside 0x20-0x7E and for `%`). */
export function specEncodeGrpcMessage(message: string): string {
  let out = "";
  for (const byte of Buffer.from(message, "utf8")) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Re-encodes a value connect-node wrote (fully percent-encoded) in the spec's form. */
export function reencodeGrpcMessage(value: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return value; // not connect's encoding: leave it as it is
  }
  return specEncodeGrpcMessage(decoded);
}

function rewrite(headers: OutgoingHttpHeaders | undefined): void {
  if (!headers) return;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (name.toLowerCase() === HEADER && typeof value === "string") headers[name] = reencodeGrpcMessage(value);
  }
}

/** The response with `grpc-message` rewritten in its headers (trailers-only) and trailers. */
export function withSpecGrpcMessage(res: Http2ServerResponse): Http2ServerResponse {
  const addTrailers = res.addTrailers.bind(res);
  res.addTrailers = (trailers: OutgoingHttpHeaders) => {
    rewrite(trailers);
    addTrailers(trailers);
  };
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => Http2ServerResponse;
  res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) => {
    rewrite(headers);
    return writeHead(status, headers);
  }) as Http2ServerResponse["writeHead"];
  return res;
}

/** A request handler for `http2.createServer` that applies `withSpecGrpcMessage` around `handler`. */
export function specGrpcMessageHandler(
  handler: (req: Http2ServerRequest, res: Http2ServerResponse) => void,
): (req: Http2ServerRequest, res: Http2ServerResponse) => void {
  return (req, res) => handler(req, withSpecGrpcMessage(res));
}
