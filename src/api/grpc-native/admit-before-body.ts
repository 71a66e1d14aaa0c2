/**
 * Authentication on the gRPC port's Connect, gRPC-Web and gRPC+JSON paths before the request body
 * is read. connect-node reads, inflates and decodes a unary request before any interceptor runs,
 * so a call with no token made the node decompress and parse its body first: 460 ms of the event
 * loop for 30 bytes of brotli, and garbage protobuf answered INTERNAL instead of UNAUTHENTICATED.
 * The native gRPC path admits on headers (grpc-call.ts); here a refused call is answered in the
 * protocol the request speaks, and its body is never read.
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { encodeEnvelope } from "@connectrpc/connect/protocol";
import { codeToHttpStatus, endStreamFlag, errorToJson, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { specEncodeGrpcMessage } from "./grpc-message-encoding.js";
import { asConnectError } from "./grpc-wire.js";

type Handler = (req: Http2ServerRequest, res: Http2ServerResponse) => void;
type Admission = (method: DescMethod, authorization: string | undefined) => Promise<void> | void;

/** Every method of `services` by its request path, `/package.Service/Method`. */
export function methodsByPath(services: readonly { readonly service: DescService }[]): Map<string, DescMethod> {
  const methods = new Map<string, DescMethod>();
  for (const { service } of services) for (const m of service.methods) methods.set(`/${service.typeName}/${m.name}`, m);
  return methods;
}

/** `handler` for calls `admit` lets through; the others refused on their headers. */
export function admitBeforeBody(handler: Handler, methods: ReadonlyMap<string, DescMethod>, admit: Admission): Handler {
  return (req, res) => {
    const method = methods.get((req.url ?? "").split("?")[0]);
    if (!method) return handler(req, res);
    Promise.resolve()
      .then(() => admit(method, req.headers.authorization))
      .then(
        () => handler(req, res),
        (e: unknown) => refuse(req, res, asConnectError(e)),
      );
  };
}

/** The refusal as the request's protocol words an error, then the stream closed: its body is not read. */
function refuse(req: Http2ServerRequest, res: Http2ServerResponse, error: ConnectError): void {
  const contentType = req.headers["content-type"] ?? "";
  if (contentType.startsWith("application/grpc")) {
    // gRPC (JSON codec) and gRPC-Web: a trailers-only answer, the status in its headers.
    res.writeHead(200, { "content-type": contentType, "grpc-status": String(error.code), "grpc-message": specEncodeGrpcMessage(error.rawMessage) });
    res.end();
  } else if (contentType.startsWith("application/connect+")) {
    // Connect streaming: an end-stream message carrying the error.
    res.writeHead(200, { "content-type": contentType });
    res.end(encodeEnvelope(endStreamFlag, new TextEncoder().encode(JSON.stringify({ error: errorToJson(error, undefined) }))));
  } else {
    // Connect unary (POST or GET): the error as JSON under its HTTP status.
    res.writeHead(codeToHttpStatus(error.code), { "content-type": "application/json" });
    res.end(errorToJsonBytes(error, undefined));
  }
  res.stream?.close();
}
