/**
 * Serves plain gRPC (`application/grpc`, `application/grpc+proto`) on the HTTP/2 server directly,
 * and hands every other request (gRPC-Web, the Connect protocol, gRPC with the JSON codec) to the
 * Connect adapter on the same server.
 *
 * Why: connect-node's server spends ~300 µs of event-loop time per unary call on this machine
 * (a stack of async iterables, Web Headers and AbortControllers per call, the HTTP/2 compat
 * layer), against ~40 µs here and ~50 µs for a grpc-js server; at 64 concurrent clients that
 * cost, not the ledger, capped SubmitAndWaitForTransaction at ~1,200/s. The native path runs the
 * very same service implementations (docs/decisions.md, "Performance").
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Http2Server, IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { runGrpcCall, type CallAdmission, type GrpcRoute, type StreamHandler, type UnaryHandler } from "./grpc-call.js";
import { errorStatus } from "./grpc-wire.js";
import { requestLimits } from "./request-limits.js";
import { extend } from "../../util/extend.js";

export interface ServiceBinding {
  readonly service: DescService;
  readonly impl: object;
}

/** Routes by request path (`/package.Service/Method`) for the unary and server-streaming methods implemented. */
export function grpcRoutes(services: readonly ServiceBinding[]): Map<string, GrpcRoute> {
  const routes = new Map<string, GrpcRoute>();
  for (const { service, impl } of services) {
    for (const method of service.methods) {
      const fn = (impl as Record<string, unknown>)[method.localName];
      if (typeof fn !== "function") continue; // answered UNIMPLEMENTED
      const path = `/${service.typeName}/${method.name}`;
      if (method.methodKind === "unary") routes.set(path, { kind: "unary", service, method, handler: fn.bind(impl) as UnaryHandler });
      else if (method.methodKind === "server_streaming") routes.set(path, { kind: "server_streaming", service, method, handler: fn.bind(impl) as StreamHandler });
    }
  }
  return routes;
}

/** The content type when it is binary gRPC (what every gRPC library sends), else undefined. */
function grpcContentType(headers: IncomingHttpHeaders): string | undefined {
  const ct = headers["content-type"];
  return ct === "application/grpc" || ct === "application/grpc+proto" ? ct : undefined;
}

/** UNIMPLEMENTED as a trailers-only response, as gRPC servers answer a method they do not have. */
function refuseUnknownMethod(stream: ServerHttp2Stream, path: string, contentType: string): void {
  stream.on("error", () => undefined);
  stream.respond(
    { ":status": 200, "content-type": contentType, ...errorStatus(new ConnectError(`method not found: ${path}`, Code.Unimplemented)) },
    { endStream: true },
  );
}

type StreamListener = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[]) => void;

/**
 * Takes over the server's `stream` event: gRPC calls to a known method are served natively, the
 * rest go to the listeners installed before (Node's compat layer, which runs the Connect adapter
 * given to `http2.createServer`).
 */
export interface NativeGrpcOptions {
  /** Told about an unexpected error (not a ConnectError) a call ended with; the client only sees INTERNAL. */
  readonly onInternalError?: (path: string, error: unknown) => void;
  /**
   * Runs before the request message is decoded and throws to refuse the call (UNAUTHENTICATED for
   * a missing or bad token): authentication comes before anything the body could be wrong about.
   */
  readonly admit?: CallAdmission;
  /** Per-method request caps; the budget across calls and the receive time are the server's own. */
  readonly maxRequestBytes?: (method: DescMethod) => number;
}

export function serveGrpcNatively(server: Http2Server, routes: ReadonlyMap<string, GrpcRoute>, options: NativeGrpcOptions = {}): void {
  const callOptions = extend(options, { limits: requestLimits(options.maxRequestBytes) });
  const fallback = server.listeners("stream") as StreamListener[];
  if (fallback.length === 0) throw new Error("serveGrpcNatively: create the server with its (Connect) request handler first");
  server.removeAllListeners("stream");
  server.on("stream", (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[]) => {
    const contentType = headers[":method"] === "POST" ? grpcContentType(headers) : undefined;
    if (contentType) {
      const route = routes.get(headers[":path"] ?? "");
      if (route) runGrpcCall(route, stream, headers, contentType, callOptions);
      else refuseUnknownMethod(stream, headers[":path"] ?? "", contentType);
      return;
    }
    for (const listener of fallback) listener.call(server, stream, headers, flags, rawHeaders);
  });
}
