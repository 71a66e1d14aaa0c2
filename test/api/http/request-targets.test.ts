/**
 * Request targets no URL parser takes (`//`, `/\`, `//host:99999/...`) over a raw socket, on the
 * JSON port and as a WebSocket upgrade: a 400 in Canton's error shape, and the node goes on (one
 * such request line used to end the process). A malformed percent-encoding in a web UI path is a
 * 400 too, not a 500. Dot segments stay in the path (`%2e%2e` is a parameter, as to Canton's
 * router), not resolved as a URL parser would. An HTTP/1.1 request without Host gets 400 in the
 * API's error shape (node:http's own is empty), upgrades included. HEAD is served wherever GET
 * is, and a 405 says what is allowed (RFC 9110).
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/test-server.js";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

/** Sends raw bytes and reads the answer until the server closes or 2 s pass. */
function raw(text: string): Promise<string> {
  const port = Number(new URL(s.http).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let got = "";
    socket.on("data", (c) => (got += c.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve(got));
    setTimeout(() => socket.destroy(), 2000).unref();
  });
}

describe("request targets", () => {
  it("answers targets no URL parser takes with 400 and stays up", async () => {
    for (const target of ["//", "/\\", "//x:99999/v2/users"]) {
      for (const method of ["GET", "POST"]) {
        const answer = await raw(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
        expect(answer, `${method} ${target}`).toMatch(/^HTTP\/1\.1 400 /);
        expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: "INVALID_ARGUMENT", cause: expect.stringMatching(/request target/) });
      }
    }
    const upgrade = await raw(
      "GET /\\ HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    );
    expect(upgrade).toMatch(/^HTTP\/1\.1 400 /);
    const version = await s.json("GET", "/v2/version", undefined, null);
    expect(version.status).toBe(200);
  });

  it("keeps dot segments in the path: %2e%2e is a path parameter, not a step up (user ids may be '..')", async () => {
    const admin = await s.adminToken();
    for (const id of ["..", "."]) {
      const created = await s.json("POST", "/v2/users", { user: { id, isDeactivated: false }, rights: [] }, admin);
      expect(created.status, created.text).toBe(200);
    }
    const get = async (target: string) => {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${admin}\r\nConnection: close\r\n\r\n`);
      return { status: Number(answer.slice(9, 12)), body: JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) };
    };
    // A URL parser resolves these to /v2 (404) or to /v2/users (the list); the route takes them as ids.
    for (const [target, id] of [["/v2/users/%2e%2e", ".."], ["/v2/users/%2E.", ".."], ["/v2/users/%2e", "."]] as const) {
      const r = await get(target);
      expect([target, r.status, r.body.user?.id]).toEqual([target, 200, id]);
    }
    // Steps up through a route's segments name no route at all (as Canton's router sees them).
    expect((await get("/v2/users/%2e%2e/%2e%2e/version")).status).toBe(404);
  });

  it("answers an HTTP/1.1 request without Host with 400 in the API's error shape (RFC 9112 §3.2)", async () => {
    const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    const canton = await raw("GET /v2/version HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(canton).toMatch(/^HTTP\/1\.1 400 /);
    expect(body(canton)).toMatchObject({ code: "INVALID_ARGUMENT", cause: expect.stringMatching(/Host header/) });
    const splice = await raw("GET /v0/wallet/balance HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(splice).toMatch(/^HTTP\/1\.1 400 /);
    expect(body(splice)).toEqual({ error: expect.stringMatching(/Host header/) });
    const upgrade = await raw("GET /v2/updates HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    expect(upgrade).toMatch(/^HTTP\/1\.1 400 /);
    expect(body(upgrade)).toMatchObject({ code: "INVALID_ARGUMENT", cause: expect.stringMatching(/Host header/) });
    // HTTP/1.0 has no Host requirement.
    const old = await raw("GET /v2/version HTTP/1.0\r\n\r\n");
    expect(old).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("answers a malformed percent-encoding in a web UI path with 400", async () => {
    for (const path of ["/%", "/wallet/%E0%A4%A"]) {
      const r = await fetch(s.http + path);
      expect([path, r.status]).toEqual([path, 400]);
      expect(await r.json()).toEqual({ error: "The path's percent-encoding is malformed." });
    }
  });

  it("serves HEAD wherever GET is served, and names the allowed methods on a 405", async () => {
    const head = await fetch(`${s.http}/v2/version`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const get = await fetch(`${s.http}/v2/version`);
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    for (const [path, allow] of [
      ["/v2/version", "GET, HEAD"],
      ["/v2/commands/submit-and-wait", "POST"],
      ["/v0/wallet/balance", "GET, HEAD"],
    ] as const) {
      const r = await fetch(s.http + path, { method: "DELETE" });
      expect([path, r.status, r.headers.get("allow")]).toEqual([path, 405, allow]);
    }
  });
});
