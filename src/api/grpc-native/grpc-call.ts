/**
 * One natively served gRPC call on an HTTP/2 stream: read the request message, run the service
 * implementation, write the response message(s) and the status trailers. Unary and
 * server-streaming, the only kinds the Ledger API has.
 *
 * - Errors before the first response message go out as a trailers-only response (one HEADERS
 *   frame), later ones in the trailers, with `grpc-status-details-bin`.
 * - `grpc-timeout` sets a deadline: past it the call ends with DEADLINE_EXCEEDED and the
 *   implementation's signal aborts. A client cancel (RST_STREAM) aborts the signal too.
 * - Streamed messages produced in the same event-loop turn (a page of a catch-up read) are written
 *   as one buffer; writes wait for the peer when HTTP/2 flow control pushes back.
 */
import { create, fromBinary, isMessage, toBinary, type DescMessage, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { CallContext } from "../context/index.js";
import { wireBytesOf } from "../convert/wire-encoded.js";
import { asConnectError, errorStatus, frame, OK_STATUS, parseTimeout, splitFrames, type StatusHeaders } from "./grpc-wire.js";
import { requestLimits, type RequestLimits } from "./request-limits.js";
import { extend } from "../../util/extend.js";

export type UnaryHandler = (request: unknown, ctx: CallContext) => unknown;
export type StreamHandler = (request: unknown, ctx: CallContext) => AsyncIterable<unknown>;
/** Decides, from the method and the request headers alone, whether a call may go on; throws to refuse it. */
export type CallAdmission = (method: DescMethod, headers: IncomingHttpHeaders) => Promise<void> | void;

export type GrpcRoute =
  | { readonly kind: "unary"; readonly service: DescService; readonly method: DescMethod; readonly handler: UnaryHandler }
  | { readonly kind: "server_streaming"; readonly service: DescService; readonly method: DescMethod; readonly handler: StreamHandler };

/** Flush streamed messages at least at this size. */
const STREAM_CHUNK_BYTES = 64 * 1024;
/**
 * Keep producing until this much waits for the peer's flow-control window: the next messages are
 * then ready the moment the window opens, instead of being produced only after the last chunk
 * left (a bubble per 64 KB window that halved catch-up throughput). Bounds memory per stream.
 */
const STREAM_BUFFER_BYTES = 1024 * 1024;
/** setTimeout's limit; longer deadlines are as good as none. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const DECOMPRESS = { gzip: gunzipSync, br: brotliDecompressSync } as const;
/** For calls made without the server's limits (tests that run a call alone). */
const DEFAULT_LIMITS = requestLimits();

/** Reports an unexpected error a call ended with (the client is told INTERNAL and nothing more). */
export type InternalErrorReporter = (path: string, error: unknown) => void;

/** What a call is run with besides its route and stream. */
export interface CallOptions {
  readonly onInternalError?: InternalErrorReporter;
  readonly admit?: CallAdmission;
  readonly limits?: RequestLimits;
}

export function runGrpcCall(route: GrpcRoute, stream: ServerHttp2Stream, headers: IncomingHttpHeaders, contentType: string, options: CallOptions = {}): void {
  new GrpcCall(route, stream, headers, contentType, options).start();
}

class GrpcCall {
  private ended = false;
  private headersSent = false;
  private timer: NodeJS.Timeout | undefined;
  private ctx: CallContext | undefined;
  private trailers: StatusHeaders = OK_STATUS;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushScheduled = false;

  constructor(
    private readonly route: GrpcRoute,
    private readonly stream: ServerHttp2Stream,
    private readonly headers: IncomingHttpHeaders,
    private readonly contentType: string,
    private readonly options: CallOptions,
  ) {}

  start(): void {
    const { stream } = this;
    // A reset stream or broken session emits 'error'; 'close' below does the cleanup.
    stream.on("error", () => undefined);
    stream.on("close", () => this.cancelled());
    stream.on("wantTrailers", () => this.sendTrailers());
    let deadline: number | undefined;
    try {
      const timeoutMs = parseTimeout(single(this.headers["grpc-timeout"]));
      if (timeoutMs !== undefined) {
        deadline = Date.now() + timeoutMs;
        if (timeoutMs <= 0) throw deadlineExceeded();
        if (timeoutMs <= MAX_TIMER_MS) this.timer = setTimeout(() => this.fail(deadlineExceeded()), timeoutMs);
      }
    } catch (e) {
      this.fail(e);
      return;
    }
    this.ctx = new CallContext(this.route.service, this.route.method, this.headers[":path"] ?? "", this.headers, { protocolName: "grpc", requestMethod: "POST", deadline });
    // Admitted on its headers, before its body is buffered: a caller without a valid token holds
    // no memory here (the body of an unauthenticated call used to be kept until its end).
    const admit = this.options.admit;
    const admitted = admit ? Promise.resolve().then(() => admit(this.route.method, this.headers)) : Promise.resolve();
    admitted.catch((e: unknown) => {
      this.fail(e);
      stream.pause();
    });
    const limits = this.options.limits ?? DEFAULT_LIMITS;
    const max = limits.maxRequestBytes(this.route.method);
    const chunks: Buffer[] = [];
    let size = 0;
    let held = 0;
    const release = () => (limits.inFlight.give(held), (held = 0));
    const refuse = (e: ConnectError) => (release(), this.fail(e), stream.pause());
    const receiving = setTimeout(() => refuse(new ConnectError(`the request did not arrive within ${limits.receiveMs} ms`, Code.DeadlineExceeded)), limits.receiveMs);
    stream.once("close", () => (clearTimeout(receiving), release()));
    stream.on("data", (chunk: Buffer) => {
      if (this.ended) return;
      if (size === 0 && chunk.length >= 5 && chunk.readUInt32BE(1) > max) size = Number.POSITIVE_INFINITY; // refused on its declared length, before it arrives
      size += chunk.length;
      if (size > max + 5) return refuse(new ConnectError(`request exceeds ${max} bytes`, Code.ResourceExhausted));
      if (!limits.inFlight.take(chunk.length)) return refuse(new ConnectError("the node holds too many request bytes in flight; retry later", Code.ResourceExhausted));
      held += chunk.length;
      chunks.push(chunk);
    });
    stream.on("end", () => {
      clearTimeout(receiving);
      if (this.ended) return release();
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      admitted.then(
        () => (release(), this.dispatch(body, max)),
        () => release(), // failed above
      );
    });
  }

  /** Decodes the request and runs the implementation. */
  private dispatch(body: Buffer, max: number): void {
    if (this.ended) return;
    let request: unknown;
    try {
      request = this.parseRequest(body, max);
    } catch (e) {
      this.fail(e);
      return;
    }
    if (this.route.kind === "unary") this.runUnary(this.route.handler, request);
    else void this.runStream(this.route.handler, request);
  }

  private parseRequest(body: Buffer, max: number): unknown {
    const frames = splitFrames(body);
    if (frames.length === 0) throw new ConnectError(`protocol error: missing input message for ${this.route.kind} method`, Code.Unimplemented);
    if (frames.length > 1) throw new ConnectError(`protocol error: received extra input message for ${this.route.kind} method`, Code.Unimplemented);
    let data = frames[0].data;
    if (frames[0].compressed) {
      const encoding = single(this.headers["grpc-encoding"]) ?? "identity";
      // PROTOCOL-HTTP2: without a Message-Encoding the Compressed-Flag must be 0.
      if (encoding === "identity") throw new ConnectError("protocol error: compressed flag set without a grpc-encoding", Code.Internal);
      const decompress = DECOMPRESS[encoding as keyof typeof DECOMPRESS];
      if (!decompress) throw new ConnectError(`unsupported grpc-encoding ${JSON.stringify(encoding)}`, Code.Unimplemented, { "grpc-accept-encoding": "gzip,br" });
      try {
        data = decompress(data, { maxOutputLength: max });
      } catch (e) {
        const tooLarge = (e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
        throw tooLarge
          ? new ConnectError(`decompressed request exceeds ${max} bytes`, Code.ResourceExhausted)
          : new ConnectError(`protocol error: cannot decompress the ${encoding} request`, Code.Internal);
      }
    }
    try {
      // Unknown fields are skipped, not kept: 16 MiB of 2-byte unknown fields made 8 million
      // objects on the event loop (3 s and 1.5 GB for 33 bytes of brotli), and no method reads them.
      return fromBinary(this.route.method.input, data, { recursionLimit: MAX_MESSAGE_NESTING, readUnknownFields: false });
    } catch (e) {
      // Deeper than any Daml value Canton accepts (each Daml level is up to 3 messages).
      if (e instanceof Error && e.message.includes("maximum recursion depth")) throw valueTooDeep();
      throw new ConnectError(`parse binary: ${e instanceof Error ? e.message : String(e)}`, Code.Internal);
    }
  }

  private runUnary(handler: UnaryHandler, request: unknown): void {
    let result: unknown;
    try {
      result = handler(request, this.ctx!);
    } catch (e) {
      this.fail(e);
      return;
    }
    Promise.resolve(result).then(
      (value) => {
        if (this.ended) return;
        let bytes: Buffer;
        try {
          bytes = frame(encode(this.route.method.output, value));
        } catch (e) {
          this.fail(e);
          return;
        }
        this.finish(OK_STATUS, bytes);
      },
      (e: unknown) => this.fail(e),
    );
  }

  private async runStream(handler: StreamHandler, request: unknown): Promise<void> {
    let iterator: AsyncIterator<unknown> | undefined;
    try {
      iterator = handler(request, this.ctx!)[Symbol.asyncIterator]();
      for (;;) {
        if (this.stream.writableLength > STREAM_BUFFER_BYTES) await this.drained();
        if (this.ended) break;
        const next = await iterator.next();
        if (next.done || this.ended) break;
        // After each full chunk, let the event loop run: the peer's WINDOW_UPDATEs and the socket
        // writes are only serviced between macrotasks, and a catch-up page is all microtasks.
        if (this.push(frame(encode(this.route.method.output, next.value)))) await yieldToEventLoop();
      }
      if (!this.ended) this.finish(OK_STATUS);
    } catch (e) {
      this.fail(e);
    } finally {
      // A cancelled call leaves the implementation suspended: let it run its finally blocks.
      if (this.ended) void iterator?.return?.()?.catch(() => undefined);
    }
  }

  /**
   * Queues a streamed message; written at the end of this event-loop turn or once a chunk is full.
   * True when it wrote a full chunk.
   */
  private push(message: Buffer): boolean {
    this.pending.push(message);
    this.pendingBytes += message.length;
    if (this.pendingBytes >= STREAM_CHUNK_BYTES) {
      this.flush();
      return true;
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        if (!this.ended) this.flush();
      });
    }
    return false;
  }

  private flush(): void {
    if (this.pending.length === 0 || this.stream.closed || this.stream.destroyed) return;
    try {
      this.sendHeaders();
      this.stream.write(this.takePending());
    } catch {
      this.stream.destroy();
    }
  }

  private takePending(): Buffer {
    const out = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return out;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off("drain", done);
        this.stream.off("close", done);
        resolve();
      };
      this.stream.on("drain", done);
      this.stream.on("close", done);
    });
  }

  private sendHeaders(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    this.stream.respond({ ":status": 200, "content-type": this.contentType, ...this.ctx?.responseHeaderFields() }, { waitForTrailers: true });
  }

  /** Ends the call: the remaining messages, then the status in the trailers. */
  private finish(status: StatusHeaders, last?: Buffer): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    if (this.stream.closed || this.stream.destroyed) return;
    if (last) {
      this.pending.push(last);
      this.pendingBytes += last.length;
    }
    const extra = this.ctx?.responseTrailerFields();
    this.trailers = extra ? extend(extra, status) : status;
    try {
      if (!this.headersSent && this.pending.length === 0) {
        // Trailers-only response: status in the one HEADERS frame.
        this.headersSent = true;
        this.stream.respond({ ":status": 200, "content-type": this.contentType, ...this.ctx?.responseHeaderFields(), ...this.trailers }, { endStream: true });
        return;
      }
      this.sendHeaders();
      if (this.pending.length > 0) this.stream.end(this.takePending());
      else this.stream.end();
    } catch {
      // The session went away between the check and the write: nothing left to tell the client.
      this.stream.destroy();
    }
  }

  private sendTrailers(): void {
    try {
      if (!this.stream.closed && !this.stream.destroyed) this.stream.sendTrailers(this.trailers);
    } catch {
      this.stream.destroy();
    }
  }

  private fail(e: unknown): void {
    if (this.ended) return;
    const error = asConnectError(e);
    if (error.code === Code.Internal && error.cause !== undefined && !(e instanceof ConnectError)) {
      this.options.onInternalError?.(this.headers[":path"] ?? "", e);
    }
    this.ctx?.abort(error);
    this.finish(errorStatus(error));
  }

  /** The stream closed: normal after `finish`, a cancel (or lost connection) before it. */
  private cancelled(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    this.ctx?.abort(new ConnectError("the call was cancelled", Code.Canceled));
  }
}

/**
 * Canton's limit on Daml value nesting (the ledger's MAX_VALUE_NESTING; this transport layer does
 * not import the ledger, so the number and Canton's message are restated here).
 */
const MAX_VALUE_NESTING = 100;

/**
 * Protobuf message nesting accepted on decode: a Daml value of the maximum depth (100) is at most
 * three messages per level (Value, Record, RecordField) plus the command around it; protobuf-es's
 * default of 100 would refuse legitimate values, and deeper input is refused before it recurses.
 */
export const MAX_MESSAGE_NESTING = 3 * MAX_VALUE_NESTING + 20;


function valueTooDeep(): ConnectError {
  const correlation = Math.random().toString(16).slice(2, 10).padEnd(8, "0");
  return new ConnectError(
    `INVALID_ARGUMENT(8,${correlation}): The submitted request has invalid arguments: Provided value exceeds maximum nesting level of ${MAX_VALUE_NESTING}`,
    Code.InvalidArgument,
  );
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function deadlineExceeded(): ConnectError {
  return new ConnectError("the operation timed out", Code.DeadlineExceeded);
}

function encode(schema: DescMessage, value: unknown): Uint8Array {
  const encoded = wireBytesOf(value);
  if (encoded) return encoded;
  const message = isMessage(value, schema) ? value : create(schema, value as never);
  return toBinary(schema, message);
}
