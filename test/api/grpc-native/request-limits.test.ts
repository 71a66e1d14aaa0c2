/**
 * What the gRPC port holds of requests, found by a hostile review that froze or crashed the node
 * without a token:
 * - a method anyone may call takes at most 1 MiB, compressed or not (33 bytes of brotli made 16 MiB
 *   of unknown fields: 8 million objects, 3 s of the event loop and 1.5 GB);
 * - a request must arrive within the receive time, and all requests in flight share one budget
 *   (240 unfinished 15 MiB bodies held 3.8 GB);
 * - a connection may open as many streams as the node serves, not 2^32 (31,000 header-only
 *   streams on one connection ended in an assertion that aborted the process).
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VersionService } from "../../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import { runGrpcCall } from "../../../src/api/grpc-native/grpc-call.js";
import { grpcRoutes } from "../../../src/api/grpc-native/native-grpc.js";
import { GRPC_UNARY_STREAMS_PER_CONNECTION, MAX_PUBLIC_REQUEST_BYTES } from "../../../src/api/grpc-native/index.js";
import { RequestBudget, type RequestLimits } from "../../../src/api/grpc-native/request-limits.js";
import { startTestServer, type TestServer } from "../../support/test-server.js";

const VERSION = "/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion";

/** A native gRPC call's status, sending `chunks` and ending the request only if `end`. */
function call(address: string, path: string, headers: Record<string, string>, chunks: Buffer[], end = true, waitMs = 5000): Promise<string> {
  return new Promise((resolve) => {
    const session = http2.connect(address);
    session.on("error", () => undefined);
    const req = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", ...headers });
    const done = (status: string) => (clearTimeout(timer), session.destroy(), resolve(status));
    const timer = setTimeout(() => done("no answer"), waitMs);
    req.on("response", (h) => h["grpc-status"] !== undefined && done(String(h["grpc-status"])));
    req.on("trailers", (t) => done(String(t["grpc-status"])));
    req.on("error", () => undefined);
    req.on("data", () => undefined);
    for (const c of chunks) req.write(c);
    if (end) req.end();
  });
}

const framed = (data: Buffer, compressed = false) => {
  const header = Buffer.from([compressed ? 1 : 0, 0, 0, 0, 0]);
  header.writeUInt32BE(data.length, 1);
  return Buffer.concat([header, data]);
};
/** `bytes` of 2-byte unknown fields (field 15, varint 0). */
const unknownFields = (bytes: number) => Buffer.alloc(bytes, Buffer.from([0x78, 0x00]));

describe("the node's gRPC port", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.stop());

  it("takes at most 1 MiB on a method anyone may call, compressed or not", async () => {
    const bomb = brotliCompressSync(unknownFields(16 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100);
    expect(await call(s.grpc, VERSION, { "grpc-encoding": "br" }, [framed(bomb, true)])).toBe("8"); // RESOURCE_EXHAUSTED
    expect(await call(s.grpc, VERSION, {}, [framed(unknownFields(MAX_PUBLIC_REQUEST_BYTES + 2))])).toBe("8");
    // Within the cap, unknown fields are skipped and the call is answered.
    expect(await call(s.grpc, VERSION, {}, [framed(unknownFields(64 * 1024))])).toBe("0");
  });

  it("advertises as many streams per connection as the node serves and its unary calls, not 2^32", async () => {
    const session = http2.connect(s.grpc);
    session.on("error", () => undefined);
    const settings = await new Promise<http2.Settings>((resolve) => session.once("remoteSettings", resolve));
    session.destroy();
    expect(settings.maxConcurrentStreams).toBe(1000 + GRPC_UNARY_STREAMS_PER_CONNECTION); // the default stream limit, 1,000
  });
});

describe("a gRPC call's request", () => {
  let server: http2.Http2Server;
  let address: string;
  const limits: RequestLimits = { maxRequestBytes: () => 1024 * 1024, inFlight: new RequestBudget(100 * 1024), receiveMs: 300 };
  beforeAll(async () => {
    const [route] = grpcRoutes([{ service: VersionService, impl: { getLedgerApiVersion: () => ({ version: "test" }) } }]).values();
    server = http2.createServer();
    server.on("stream", (stream, headers) => runGrpcCall(route, stream, headers, "application/grpc", { limits }));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("that does not arrive within the receive time is ended with DEADLINE_EXCEEDED, and its bytes given back", async () => {
    const begun = Buffer.concat([Buffer.from([0, 0, 0, 0x40, 0]), Buffer.alloc(1000)]); // 16 KiB declared, 1,000 sent
    expect(await call(address, VERSION, {}, [begun], false)).toBe("4");
    await new Promise((r) => setTimeout(r, 50));
    expect(limits.inFlight.held).toBe(0);
  });

  it("beyond the budget of requests in flight is refused with RESOURCE_EXHAUSTED, and taken again once the others are gone", async () => {
    const part = Buffer.concat([Buffer.from([0, 0, 0x01, 0, 0]), Buffer.alloc(60 * 1024)]); // 64 KiB declared, 60 KiB sent
    const holding = call(address, VERSION, {}, [part], false);
    await new Promise((r) => setTimeout(r, 100));
    expect(limits.inFlight.held).toBeGreaterThan(60 * 1024);
    expect(await call(address, VERSION, {}, [part], false)).toBe("8");
    expect(await holding).toBe("4"); // the first ran out of time
    await new Promise((r) => setTimeout(r, 50));
    expect(limits.inFlight.held).toBe(0);
    expect(await call(address, VERSION, {}, [framed(Buffer.alloc(0))])).toBe("0");
  });
});
