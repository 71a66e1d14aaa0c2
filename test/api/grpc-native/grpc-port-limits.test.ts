/**
 * The gRPC port's limits: a compressed request that inflates past the 16 MiB request limit is
 * refused on Connect and gRPC-Web without being inflated, as native gRPC refuses it (connect-node's
 * default limit is 4 GiB: a 1 MB gzip of zeros took the node to 2 GB); a call without a valid token
 * is refused on its headers, before its body is buffered; an idle connection is closed.
 */
import http2 from "node:http2";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/test-server.js";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

const PATH = "/com.daml.ledger.api.v2.StateService/GetLedgerEnd";
const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });

function post(headers: Record<string, string>, body: Buffer): Promise<{ headers: Record<string, unknown>; body: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const session = http2.connect(s.grpc);
    session.on("error", reject);
    const req = session.request({ ":method": "POST", ":path": PATH, ...headers });
    let got: Record<string, unknown> = {};
    let text = "";
    req.on("response", (h) => (got = { ...h }));
    req.on("trailers", (t) => (got = { ...got, ...t }));
    req.on("data", (d: Buffer) => (text += d.toString("latin1")));
    req.on("close", () => {
      session.close();
      resolve({ headers: got, body: text, ms: Date.now() - started });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("compressed requests over the limit", () => {
  it("are refused on Connect and gRPC-Web without inflating them", async () => {
    const framed = Buffer.concat([Buffer.from([1, 0, 0, 0, 0]), bomb]);
    framed.writeUInt32BE(bomb.length, 1);
    // With a valid token (without one, the call is refused on its headers before anything is read).
    const authorization = `Bearer ${await s.adminToken()}`;
    const connect = await post({ "content-type": "application/proto", "content-encoding": "gzip", "connect-protocol-version": "1", authorization }, bomb);
    expect(connect.headers[":status"]).toBe(429); // Connect's resource_exhausted
    expect(JSON.parse(connect.body).code).toBe("resource_exhausted");
    const web = await post({ "content-type": "application/grpc-web+proto", "grpc-encoding": "gzip", authorization }, framed);
    expect(web.body).toMatch(/grpc-status:\s*8/); // RESOURCE_EXHAUSTED in the body's trailer frame
    for (const r of [connect, web]) expect(r.ms).toBeLessThan(3000);
    expect((await s.json("GET", "/livez", undefined, null)).status).toBe(200);
  });
});

describe("a gRPC call without a valid token", () => {
  it("is refused on its headers, while its body is still coming (nothing of it is buffered)", async () => {
    const session = http2.connect(s.grpc);
    const req = session.request({ ":method": "POST", ":path": PATH, "content-type": "application/grpc", te: "trailers" });
    const status = new Promise<unknown>((resolve) => {
      req.on("response", (h) => h["grpc-status"] !== undefined && resolve(h["grpc-status"]));
      req.on("trailers", (t) => resolve(t["grpc-status"]));
    });
    req.on("error", () => undefined);
    req.write(Buffer.concat([Buffer.from([0, 0, 0xff, 0, 0]), Buffer.alloc(64 * 1024)])); // a 16 MiB message begun, never finished
    const answered = await Promise.race([status, new Promise((r) => setTimeout(() => r("no answer"), 3000))]);
    session.destroy();
    expect(answered).toBe("16"); // UNAUTHENTICATED
  });
});

describe("an idle connection", () => {
  it("is sent away once it has had no call open for the idle time; one with a call open is kept", async () => {
    const { trackSessions } = await import("../../../src/api/grpc-native/index.js");
    const server = http2.createServer((_req, res) => setTimeout(() => res.end("done"), 600));
    trackSessions(server, 300);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const closedAfter = (session: http2.ClientHttp2Session) => {
      const started = Date.now();
      return new Promise<number>((r) => session.on("close", () => r(Date.now() - started)));
    };
    const silent = http2.connect(url);
    silent.on("error", () => undefined);
    const busy = http2.connect(url);
    busy.on("error", () => undefined);
    const call = busy.request({ ":path": "/" });
    let answer = "";
    call.on("data", (d: Buffer) => (answer += d.toString()));
    const answered = new Promise<void>((r) => call.on("end", () => r()));
    call.end();
    const [silentClosed] = await Promise.all([closedAfter(silent), answered]);
    expect(silentClosed).toBeLessThan(2_000);
    expect(answer).toBe("done"); // the 600 ms call outlived the 300 ms idle time
    expect(await closedAfter(busy)).toBeLessThan(2_000); // and its connection went once idle
    await new Promise<void>((r) => server.close(() => r()));
  });
});

describe("a Connect, gRPC-Web or gRPC+JSON call without a valid token", () => {
  // connect-node decoded (and inflated) the body before its interceptor looked at the token: 30
  // bytes of brotli cost 460 ms, and garbage protobuf without a token was INTERNAL, not UNAUTHENTICATED.
  const garbage = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]);
  const STREAM = "/com.daml.ledger.api.v2.CommandCompletionService/CompletionStream";
  const send = (path: string, headers: Record<string, string>, body: Buffer) =>
    new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const session = http2.connect(s.grpc);
      session.on("error", reject);
      const req = session.request({ ":method": "POST", ":path": path, ...headers });
      let got: Record<string, unknown> = {};
      const chunks: Buffer[] = [];
      req.on("response", (h) => (got = { ...h }));
      req.on("trailers", (t) => (got = { ...got, ...t }));
      req.on("data", (d: Buffer) => chunks.push(d));
      req.on("close", () => (session.close(), resolve({ headers: got, body: Buffer.concat(chunks) })));
      req.on("error", () => undefined);
      req.end(body);
    });
  const framedGarbage = Buffer.concat([Buffer.from([0, 0, 0, 0, garbage.length]), garbage]);

  it("is refused on its headers in each protocol's own words, the body never read", async () => {
    const connect = await send(PATH, { "content-type": "application/proto", "connect-protocol-version": "1" }, garbage);
    expect(connect.headers[":status"]).toBe(401);
    expect(JSON.parse(connect.body.toString()).code).toBe("unauthenticated");
    const web = await send(PATH, { "content-type": "application/grpc-web+proto" }, framedGarbage);
    expect(web.headers["grpc-status"]).toBe("16");
    const json = await send(PATH, { "content-type": "application/grpc+json", te: "trailers" }, framedGarbage);
    expect(json.headers["grpc-status"]).toBe("16");
    const stream = await send(STREAM, { "content-type": "application/connect+proto", "connect-protocol-version": "1" }, framedGarbage);
    expect(stream.headers[":status"]).toBe(200);
    expect(stream.body[0]).toBe(2); // an end-stream envelope
    expect(JSON.parse(stream.body.subarray(5).toString()).error.code).toBe("unauthenticated");
    // A brotli bomb without a token is refused as fast as anything else.
    const bomb = brotliCompressSync(Buffer.alloc(16 * 1024 * 1024 - 16, Buffer.from([0x78, 0x00])));
    const bombed = await send(PATH, { "content-type": "application/proto", "content-encoding": "br", "connect-protocol-version": "1" }, bomb);
    expect(bombed.headers[":status"]).toBe(401);
  });

  it("with a valid token goes on to the adapter, which then finds the garbage", async () => {
    const token = await s.adminToken();
    const connect = await send(PATH, { "content-type": "application/proto", "connect-protocol-version": "1", authorization: `Bearer ${token}` }, garbage);
    expect(connect.headers[":status"]).not.toBe(401);
    expect(JSON.parse(connect.body.toString()).code).not.toBe("unauthenticated");
  });
});

