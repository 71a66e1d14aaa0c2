/**
 * A compressed request that inflates past the 16 MiB request limit, on the gRPC port's Connect
 * and gRPC-Web protocols, as the native gRPC path already refuses it: refused without being
 * inflated (connect-node's default limit is 4 GiB: a 1 MB gzip of zeros took the node to 2 GB).
 */
import http2 from "node:http2";
import { gzipSync } from "node:zlib";
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
    const connect = await post({ "content-type": "application/proto", "content-encoding": "gzip", "connect-protocol-version": "1" }, bomb);
    expect(connect.headers[":status"]).toBe(429); // Connect's resource_exhausted
    expect(JSON.parse(connect.body).code).toBe("resource_exhausted");
    const web = await post({ "content-type": "application/grpc-web+proto", "grpc-encoding": "gzip" }, framed);
    expect(web.body).toMatch(/grpc-status:\s*8/); // RESOURCE_EXHAUSTED in the body's trailer frame
    for (const r of [connect, web]) expect(r.ms).toBeLessThan(3000);
    expect((await s.json("GET", "/livez", undefined, null)).status).toBe(200);
  });
});
