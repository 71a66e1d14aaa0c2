/**
 * The gRPC port's HTTP/2 sessions: tracked, so shutdown can close them, and closed once idle. A
 * connection with no call open for IDLE_SESSION_MS (or that never sent a call at all) is sent a
 * GOAWAY — gRPC clients reconnect on their next call — so silent connections cannot pile up until
 * the process runs out of file descriptors (20,000 held open made the JSON port unreachable).
 * Open streams keep their connection, however quiet (an idle completion stream is a call).
 */
import type http2 from "node:http2";

export const IDLE_SESSION_MS = 120_000;
/** Streams a connection may open beyond the node's stream limit: its unary calls in flight. */
export const GRPC_UNARY_STREAMS_PER_CONNECTION = 256;
/** Connections the port accepts at once (beyond, the kernel's backlog waits). */
export const MAX_CONNECTIONS = 4096;
/** A session told to go away that does not close by itself within this is destroyed. */
const CLOSE_GRACE_MS = 5_000;

export function trackSessions(server: http2.Http2Server, idleMs = IDLE_SESSION_MS): ReadonlySet<http2.Http2Session> {
  const sessions = new Set<http2.Http2Session>();
  server.maxConnections = MAX_CONNECTIONS;
  server.on("session", (session) => {
    sessions.add(session);
    let open = 0;
    let idle: NodeJS.Timeout | undefined;
    const arm = () => {
      idle = setTimeout(() => {
        session.close();
        setTimeout(() => session.destroy(), CLOSE_GRACE_MS).unref();
      }, idleMs);
      idle.unref();
    };
    arm();
    session.on("stream", (stream: http2.ServerHttp2Stream) => {
      open++;
      clearTimeout(idle);
      stream.once("close", () => {
        if (--open === 0 && !session.closed && !session.destroyed) arm();
      });
    });
    session.once("close", () => {
      clearTimeout(idle);
      sessions.delete(session);
    });
  });
  return sessions;
}
