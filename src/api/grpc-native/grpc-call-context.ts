/**
 * The HandlerContext a natively served gRPC call hands to the service implementations: the same
 * interface Connect provides, so one implementation serves both paths. Everything a call may not
 * need (abort signal, response headers/trailers, context values) is created on first use; the
 * request headers are built eagerly because every call authenticates.
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { createContextValues, type ContextValues, type HandlerContext } from "@connectrpc/connect";
import type { IncomingHttpHeaders } from "node:http2";

export class GrpcCallContext implements HandlerContext {
  readonly protocolName = "grpc";
  readonly requestMethod = "POST";
  readonly requestHeader: Headers;
  private controller: AbortController | undefined;
  private header: Headers | undefined;
  private trailer: Headers | undefined;
  private contextValues: ContextValues | undefined;

  constructor(
    readonly service: DescService,
    readonly method: DescMethod,
    readonly url: string,
    headers: IncomingHttpHeaders,
    private readonly deadline: number | undefined,
  ) {
    this.requestHeader = requestHeaders(headers);
  }

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  readonly timeoutMs = (): number | undefined => (this.deadline === undefined ? undefined : this.deadline - Date.now());

  get responseHeader(): Headers {
    return (this.header ??= new Headers());
  }

  get responseTrailer(): Headers {
    return (this.trailer ??= new Headers());
  }

  get values(): ContextValues {
    return (this.contextValues ??= createContextValues());
  }

  /** Ends the call for the implementation (cancelled, deadline passed): aborts its signal. */
  abort(reason: unknown): void {
    (this.controller ??= new AbortController()).abort(reason);
  }

  /** Headers the implementation set, as HTTP/2 header fields (none in the common case). */
  responseHeaderFields(): Record<string, string> | undefined {
    return this.header && fields(this.header);
  }

  responseTrailerFields(): Record<string, string> | undefined {
    return this.trailer && fields(this.trailer);
  }
}

function requestHeaders(headers: IncomingHttpHeaders): Headers {
  const h = new Headers();
  for (const name in headers) {
    // Pseudo-headers (:path, :method, ...) are not metadata.
    if (name.charCodeAt(0) === 58) continue;
    const v = headers[name];
    if (typeof v === "string") h.append(name, v);
    else if (Array.isArray(v)) for (const x of v) h.append(name, x);
  }
  return h;
}

function fields(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}
