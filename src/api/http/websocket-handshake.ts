/**
 * The HTTP half of a JSON API WebSocket: where the token comes from and how a handshake is
 * refused. Canton's clients (the wallet SDK, wscat, Java's HttpClient) put the token in
 * `Sec-WebSocket-Protocol` as two subprotocols, `jwt.token.<JWT>` and `daml.ws.auth`, and expect
 * `daml.ws.auth` back; a plain `Authorization: Bearer` header works too. A refused handshake is
 * an ordinary HTTP answer (status and JsCantonError body), written on the raw socket because no
 * ServerResponse exists for an upgrade request.
 */
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

/** The subprotocol that says "my token is in the other subprotocol"; the server answers with it. */
export const DAML_WS_AUTH = "daml.ws.auth";
const JWT_PREFIX = "jwt.token.";

/** The subprotocols the client offered, in order. */
export function offeredSubprotocols(req: IncomingMessage): string[] {
  const header = req.headers["sec-websocket-protocol"];
  const text = Array.isArray(header) ? header.join(",") : (header ?? "");
  return text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/**
 * The `authorization` header value the services read: the `jwt.token.` subprotocol's token (as
 * a bearer token) when the client sent one, else the request's own Authorization header.
 */
export function authorizationOf(req: IncomingMessage): string | undefined {
  const jwt = offeredSubprotocols(req).find((p) => p.startsWith(JWT_PREFIX));
  if (jwt !== undefined) return `Bearer ${jwt.slice(JWT_PREFIX.length)}`;
  return req.headers.authorization;
}

/** The subprotocol to answer with: `daml.ws.auth` when offered, else none (ws then sends no header). */
export function chooseSubprotocol(offered: ReadonlySet<string>): string | false {
  return offered.has(DAML_WS_AUTH) ? DAML_WS_AUTH : false;
}

/**
 * Refuses a handshake with an HTTP answer and closes the connection: ended, then destroyed after a
 * grace for the answer to leave, since the server's sockets allow half-open connections and a
 * client that never closes its side would otherwise hold the descriptor for good.
 */
export function refuseUpgrade(socket: Duplex, status: number, body: unknown): void {
  if (!socket.writable) return void socket.destroy();
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
  setTimeout(() => socket.destroy(), REFUSED_SOCKET_GRACE_MS).unref();
}

const REFUSED_SOCKET_GRACE_MS = 2_000;
