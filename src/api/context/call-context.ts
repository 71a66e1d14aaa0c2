/**
 * The HandlerContext our own transports (native gRPC, the JSON gateways) hand to the service
 * implementations: the interface Connect provides, so one implementation serves every path, but
 * without what Connect's `createHandlerContext` builds for each call (a deadline controller, a
 * linked controller, four Headers copies). Everything a call may not need (abort signal, response
 * headers/trailers, context values) is created on first use; the request headers are built
 * eagerly because every call authenticates.
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { createContextValues, type ContextValues, type HandlerContext } from "@connectrpc/connect";
import type { IncomingHttpHeaders } from "node:http2";

export interface CallContextOptions {
  readonly protocolName: string;
  readonly requestMethod: string;
  /** Epoch milliseconds past which the call is abandoned. */
  readonly deadline?: number;
  /** The transport's own cancellation (a client gone, shutdown); without it one is made on first use. */
  readonly controller?: AbortController;
}

export class CallContext implements HandlerContext {
  readonly protocolName: string;
  readonly requestMethod: string;
  readonly requestHeader: Headers;
  private readonly deadline: number | undefined;
  private controller: AbortController | undefined;
  private header: Headers | undefined;
  private trailer: Headers | undefined;
  private contextValues: ContextValues | undefined;

  constructor(
    readonly service: DescService,
    readonly method: DescMethod,
    readonly url: string,
    headers: IncomingHttpHeaders,
    options: CallContextOptions,
  ) {
    this.requestHeader = requestHeaders(headers);
    this.protocolName = options.protocolName;
    this.requestMethod = options.requestMethod;
    this.deadline = options.deadline;
    this.controller = options.controller;
  }

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  // A method, as in Connect's own context (an arrow field would be a closure, named, per call).
  timeoutMs(): number | undefined {
    return this.deadline === undefined ? undefined : this.deadline - Date.now();
  }

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

/** A request's headers as Web Headers, without HTTP/2 pseudo-headers (HTTP/1.1 and HTTP/2 alike). */
export function requestHeaders(headers: IncomingHttpHeaders): Headers {
  const h = new Headers();
  for (const name in headers) {
    // HTTP/2 pseudo-headers (:path, :method, ...) are not metadata.
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
