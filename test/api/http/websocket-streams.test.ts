/**
 * The WebSocket form of the JSON API's streams over real sockets, as Canton 3.4 serves it: the
 * token in the `jwt.token.<JWT>` + `daml.ws.auth` subprotocols (or a bearer header), one request
 * frame with the POST body, one frame per item; refusals before the upgrade as HTTP answers, and
 * after it as one JsCantonError frame and a close.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect as connectTcp, type Socket } from "node:net";
import { generateKeyPair, SignJWT } from "jose";
import WebSocket from "ws";
import { createIou, startTestServer, type TestServer } from "../../support/test-server.js";

type Who = { party: string; user: string; token: string };
type Json = any; // frames are checked field by field

interface Conn {
  readonly ws: WebSocket;
  /** The next frame (parsed), waiting up to `ms`. */
  next(ms?: number): Promise<Json>;
  /** Frames until one matches; the others (offset checkpoints) are skipped. */
  until(pred: (f: Json) => boolean, ms?: number): Promise<Json>;
  readonly closed: Promise<{ code: number; reason: string }>;
}
type Refused = { readonly refused: { status: number; body: Json } };

/** Opens a socket; auth "subprotocol" sends Canton's two subprotocols, "header" a bearer header. */
function open(s: TestServer, path: string, token: string | null, auth: "subprotocol" | "header" = "subprotocol"): Promise<Conn | Refused> {
  const protocols = token !== null && auth === "subprotocol" ? [`jwt.token.${token}`, "daml.ws.auth"] : ["daml.ws.auth"];
  const headers = token !== null && auth === "header" ? { authorization: `Bearer ${token}` } : undefined;
  const ws = new WebSocket(`${s.http.replace("http", "ws")}${path}`, protocols, { headers });
  const frames: Json[] = [];
  let wake: (() => void) | undefined;
  ws.on("message", (data) => {
    frames.push(JSON.parse(data.toString()));
    wake?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on("close", (code, reason) => (r({ code, reason: reason.toString() }), wake?.())));
  const next = async (ms = 5000): Promise<Json> => {
    const deadline = Date.now() + ms;
    while (frames.length === 0) {
      if (ws.readyState === ws.CLOSED || Date.now() > deadline) throw new Error(`no frame within ${ms} ms (socket state ${ws.readyState})`);
      await new Promise<void>((r) => ((wake = r), setTimeout(r, 50)));
    }
    return frames.shift();
  };
  const until = async (pred: (f: Json) => boolean, ms = 5000) => {
    for (;;) {
      const f = await next(ms);
      if (pred(f)) return f;
    }
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, next, until, closed }));
    ws.once("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ refused: { status: res.statusCode ?? 0, body: JSON.parse(text) } }));
    });
    ws.once("error", reject);
  });
}

async function connect(s: TestServer, path: string, token: string, auth?: "subprotocol" | "header"): Promise<Conn> {
  const c = await open(s, path, token, auth);
  if ("refused" in c) throw new Error(`refused: ${JSON.stringify(c.refused)}`);
  return c;
}

const wildcard = (party: string) => ({ filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } });
const updatesRequest = (party: string, beginExclusive: number) => ({
  beginExclusive,
  updateFormat: { includeTransactions: { eventFormat: { ...wildcard(party), verbose: true }, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } },
});

let s: TestServer;
let alice: Who;
let bob: Who;

async function ledgerEnd(): Promise<number> {
  return (await s.json("GET", "/v2/state/ledger-end")).body.offset;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
  bob = await s.partyUser("bob");
});
afterAll(() => s?.stop());

describe("WebSocket streams", () => {
  it("completions: the completion of a command submitted after the socket opened", async () => {
    const c = await connect(s, "/v2/commands/completions", alice.token);
    expect(c.ws.protocol).toBe("daml.ws.auth");
    c.ws.send(JSON.stringify({ parties: [alice.party], beginExclusive: await ledgerEnd() }));
    const commandId = `ws-completion-${Date.now()}`;
    const submitted = await s.json("POST", "/v2/commands/submit-and-wait", createIou(alice.party, "3", alice.party, commandId).commands, alice.token);
    expect(submitted.status).toBe(200);
    const frame = await c.until((f) => f.completionResponse?.Completion !== undefined);
    const completion = frame.completionResponse.Completion.value;
    expect(completion.commandId).toBe(commandId);
    expect(completion.updateId).toBe(submitted.body.updateId);
    expect(completion.offset).toBe(submitted.body.completionOffset);
    expect(completion.actAs).toEqual([alice.party]);
    c.ws.close(1000);
    expect((await c.closed).code).toBe(1000);
  });

  it("updates: a transaction created after the socket opened, live (bearer header auth)", async () => {
    const c = await connect(s, "/v2/updates", alice.token, "header");
    c.ws.send(JSON.stringify(updatesRequest(alice.party, await ledgerEnd())));
    await new Promise((r) => setTimeout(r, 100)); // the stream is tailing the ledger end by now
    const created = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "7.5"), alice.token);
    expect(created.status).toBe(200);
    const cid = created.body.transaction.events[0].CreatedEvent.contractId;
    const frame = await c.until((f) => f.update?.Transaction !== undefined);
    const tx = frame.update.Transaction.value;
    expect(tx.updateId).toBe(created.body.transaction.updateId);
    const event = tx.events[0].CreatedEvent;
    expect(event.contractId).toBe(cid);
    expect(event.templateId).toMatch(/:Ccwallet\.Demo\.Iou:Iou$/);
    expect(event.createArgument.amount).toBe("7.5000000000");
    c.ws.close();
    await c.closed;
  });

  it("updates/flats with the legacy filter (what the wallet SDK sends), ending at endInclusive with 1000", async () => {
    const created = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "2"), alice.token);
    const offset = created.body.transaction.offset;
    const c = await connect(s, "/v2/updates/flats", alice.token);
    c.ws.send(JSON.stringify({ beginExclusive: offset - 1, endInclusive: offset, filter: wildcard(alice.party), verbose: true }));
    const frame = await c.next();
    expect(frame.update.Transaction.value.offset).toBe(offset);
    expect((await c.closed).code).toBe(1000);
  });

  it("active-contracts: the party's contracts, one frame each, then close 1000", async () => {
    const carol = await s.partyUser("carol");
    const amounts = ["1.25", "4"];
    const cids: string[] = [];
    for (const amount of amounts) {
      const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(carol.party, amount), carol.token);
      cids.push(r.body.transaction.events[0].CreatedEvent.contractId);
    }
    const c = await connect(s, "/v2/state/active-contracts", carol.token);
    c.ws.send(JSON.stringify({ eventFormat: wildcard(carol.party), activeAtOffset: await ledgerEnd() }));
    const events = [await c.next(), await c.next()].map((f) => f.contractEntry.JsActiveContract.createdEvent);
    expect(events.map((e) => e.contractId)).toEqual(cids);
    expect(events.map((e) => e.createArgument.amount)).toEqual(["1.2500000000", "4.0000000000"]);
    expect(events.every((e) => e.createArgument.owner === carol.party)).toBe(true);
    expect((await c.closed).code).toBe(1000);
  });

  it("takes `//v2/...` as `/v2/...` (the wallet SDK joins its base URL and the path so)", async () => {
    const c = await connect(s, "//v2/state/active-contracts", alice.token);
    c.ws.send(JSON.stringify({ eventFormat: wildcard(alice.party), activeAtOffset: 0 }));
    expect((await c.closed).code).toBe(1000);
  });

  it("counts an open socket against the stream limits, and frees the slot on close", async () => {
    const before = s.server.api.streams.open;
    const c = await connect(s, "/v2/commands/completions", alice.token);
    c.ws.send(JSON.stringify({ parties: [alice.party], beginExclusive: await ledgerEnd() }));
    await waitFor(() => s.server.api.streams.open === before + 1);
    c.ws.close();
    await c.closed;
    await waitFor(() => s.server.api.streams.open === before);
  });
});

describe("WebSocket streams: bad input", () => {
  it("refuses the upgrade without a token, with an expired or a forged one: 401 and the POST route's JsCantonError", async () => {
    const post = await s.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=50", { parties: [alice.party] }, null);
    for (const token of [null, await s.token(alice.user, -60), alice.token.slice(0, -3) + "abc"]) {
      const r = await open(s, "/v2/commands/completions", token);
      expect("refused" in r).toBe(true);
      const { status, body } = (r as Refused).refused;
      expect(status).toBe(401);
      expect(body.code).toBe(post.body.code);
      expect(body.grpcCodeValue).toBe(16);
      expect(typeof body.cause).toBe("string");
    }
  });

  it("refuses an upgrade on a path that is no stream: 404 JsCantonError", async () => {
    const r = await open(s, "/v2/state/ledger-end", alice.token);
    expect((r as Refused).refused.status).toBe(404);
    expect((r as Refused).refused.body.code).toBe("NOT_FOUND");
  });

  it("answers a malformed frame, wrong types and unknown fields with the POST form's error frame, then closes 1011", async () => {
    const end = await ledgerEnd();
    const cases: [string, string][] = [
      ["not json", "{parties"],
      ["wrong type", JSON.stringify({ parties: alice.party })],
      ["unknown field", JSON.stringify({ parties: [alice.party], nonsense: 1 })],
      ["duplicate key", `{"parties": ["${alice.party}"], "parties": []}`],
    ];
    for (const [what, text] of cases) {
      const post = await s.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=50", text, alice.token);
      expect(post.status, what).toBe(400);
      const c = await connect(s, "/v2/commands/completions", alice.token);
      c.ws.send(text);
      const frame = await c.next();
      expect(frame.code, what).toBe(post.body.code);
      expect(frame.cause, what).toBe(post.body.cause);
      expect(Object.keys(frame).sort(), what).toEqual(Object.keys(post.body).filter((k) => k !== "correlationId").concat("correlationId").sort());
      expect((await c.closed).code, what).toBe(1011);
    }
    expect(await ledgerEnd()).toBe(end);
  });

  it("answers another party's filter with PERMISSION_DENIED, as the service raises it", async () => {
    const post = await s.json("POST", "/v2/updates?stream_idle_timeout_ms=50", updatesRequest(alice.party, 0), bob.token);
    expect(post.status).toBe(403);
    for (const [path, request] of [
      ["/v2/updates", updatesRequest(alice.party, 0)],
      ["/v2/commands/completions", { parties: [alice.party] }],
      ["/v2/state/active-contracts", { eventFormat: wildcard(alice.party), activeAtOffset: 0 }],
    ] as const) {
      const c = await connect(s, path, bob.token);
      c.ws.send(JSON.stringify(request));
      const frame = await c.next();
      expect(frame.code, path).toBe(post.body.code);
      expect(frame.grpcCodeValue, path).toBe(7);
      expect((await c.closed).code, path).toBe(1011);
    }
  });

  it("answers a second frame and a binary frame with an error frame and a close", async () => {
    const end = await ledgerEnd();
    const c = await connect(s, "/v2/commands/completions", alice.token);
    const request = JSON.stringify({ parties: [alice.party], beginExclusive: end });
    c.ws.send(request);
    c.ws.send(request);
    const frame = await c.until((f) => f.code !== undefined);
    expect(frame.code).toBe("INVALID_ARGUMENT");
    expect(frame.cause).toMatch(/exactly one request frame/);
    expect((await c.closed).code).toBe(1011);

    const b = await connect(s, "/v2/commands/completions", alice.token);
    b.ws.send(Buffer.from(request));
    const binary = await b.next();
    expect(binary.code).toBe("INVALID_ARGUMENT");
    expect(binary.cause).toMatch(/binary frames/);
    expect((await b.closed).code).toBe(1011);
    expect(await ledgerEnd()).toBe(end);
  });

  it("ends a stream whose user lost its rights, was deleted, or whose token expired (ongoing stream authorization)", async () => {
    const admin = await s.adminToken();
    const ursula = await s.partyUser("ursula");
    const opened = async (token: string) => {
      const c = await connect(s, "/v2/updates", token);
      c.ws.send(JSON.stringify(updatesRequest(ursula.party, await ledgerEnd())));
      return c;
    };
    const endsWith = async (c: Conn, code: string) => {
      const frame = await c.until((f) => f.code !== undefined, 5000);
      expect(frame.code).toBe(code);
      expect((await c.closed).code).toBe(1011);
      return frame;
    };
    // Rights revoked: STALE_STREAM_AUTHORIZATION (retry at once; the retry is refused).
    const revoked = await opened(ursula.token);
    const patch = await s.json("PATCH", `/v2/users/${ursula.user}/rights`, { userId: ursula.user, rights: [{ kind: { CanActAs: { value: { party: ursula.party } } } }] }, admin);
    expect(patch.status, patch.text).toBe(200);
    expect((await endsWith(revoked, "STALE_STREAM_AUTHORIZATION")).cause).toBe("Stale stream authorization. Retry quickly.");
    const again = await open(s, "/v2/updates", ursula.token);
    if ("refused" in again) throw new Error("the upgrade itself is not where rights are checked");
    again.ws.send(JSON.stringify(updatesRequest(ursula.party, await ledgerEnd())));
    expect((await again.until((f) => f.code !== undefined)).code).toBe("PERMISSION_DENIED");

    // The token expires while the stream runs: ACCESS_TOKEN_EXPIRED.
    const victor = await s.partyUser("victor");
    const shortLived = await s.token(victor.user, 2);
    const c = await connect(s, "/v2/updates", shortLived);
    c.ws.send(JSON.stringify(updatesRequest(victor.party, await ledgerEnd())));
    expect((await endsWith(c, "ACCESS_TOKEN_EXPIRED")).cause).toMatch(/^Claims were valid until \S+, current time is \S+$/);

    // The user is deleted: STALE_STREAM_AUTHORIZATION; an unchanged user's stream goes on.
    const wanda = await s.partyUser("wanda");
    const deleted = await connect(s, "/v2/updates", wanda.token);
    deleted.ws.send(JSON.stringify(updatesRequest(wanda.party, await ledgerEnd())));
    const untouched = await connect(s, "/v2/updates", alice.token);
    untouched.ws.send(JSON.stringify(updatesRequest(alice.party, await ledgerEnd())));
    expect((await s.json("DELETE", `/v2/users/${wanda.user}`, undefined, admin)).status).toBe(200);
    await endsWith(deleted, "STALE_STREAM_AUTHORIZATION");
    const created = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "1.25"), alice.token);
    expect((await untouched.until((f) => f.update?.Transaction !== undefined)).update.Transaction.value.updateId).toBe(created.body.transaction.updateId);
    untouched.ws.close();
    await untouched.closed;
  }, 30_000);

  it("closes a socket that breaks the protocol with the code for it, and goes on serving (hostile review: it ended the process)", async () => {
    const badText = await connect(s, "/v2/updates", alice.token);
    badText.ws.send(Buffer.from([0xc3, 0x28]), { binary: false }); // not UTF-8, in a text frame
    expect((await badText.closed).code).toBe(1007);
    const tooBig = await connect(s, "/v2/updates", alice.token);
    tooBig.ws.send("x".repeat(4 * 1024 * 1024 + 1)); // past CCWALLET_HTTP_MAX_BODY_BYTES
    expect((await tooBig.closed).code).toBe(1009);
    const acs = await connect(s, "/v2/state/active-contracts", alice.token);
    acs.ws.send(JSON.stringify({ eventFormat: wildcard(alice.party), activeAtOffset: await ledgerEnd() }));
    expect((await acs.closed).code).toBe(1000);
  });

  it("cuts a socket that goes on sending after its request frame (a frame never finished held up to 4 MiB)", async () => {
    const c = await connect(s, "/v2/updates", alice.token);
    c.ws.send(JSON.stringify(updatesRequest(alice.party, await ledgerEnd())));
    const fragment = "x".repeat(16 * 1024);
    for (let i = 0; i < 8; i++) c.ws.send(fragment, { fin: false });
    expect((await c.closed).code).toBe(1006);
    expect((await s.json("GET", "/v2/state/ledger-end")).status).toBe(200);
  });

  it("keeps a socket that only pings after its request frame, past the bytes a frame may take", async () => {
    const c = await connect(s, "/v2/updates", alice.token);
    c.ws.send(JSON.stringify(updatesRequest(alice.party, await ledgerEnd())));
    await new Promise((r) => setTimeout(r, 50));
    // 12,000 pings of 6 bytes: 72 KB, more than the 64 KiB a client may send in data. In bursts of
    // 40: ws itself cuts a client with more than 60 pings awaiting their pongs (a ping flood).
    for (let burst = 0; burst < 300; burst++) {
      for (let i = 0; i < 40; i++) c.ws.ping();
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    const created = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "2.5"), alice.token);
    expect((await c.until((f) => f.update?.Transaction !== undefined)).update.Transaction.value.updateId).toBe(created.body.transaction.updateId);
    c.ws.close();
    await c.closed;
  });

  it("closes a socket that sends no request frame within 10 s (it holds no stream slot meanwhile)", async () => {
    const opened = Date.now();
    const c = await connect(s, "/v2/updates", alice.token);
    const frame = await c.next(15_000);
    expect(frame.code).toBe("INVALID_ARGUMENT");
    expect(frame.cause).toMatch(/no request frame within 10 s/);
    expect((await c.closed).code).toBe(1011);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(9_900);
  }, 30_000);
});

describe("WebSocket streams: limits and shutdown", () => {
  let t: TestServer;
  let dave: Who;
  beforeAll(async () => {
    const config = join(mkdtempSync(join(tmpdir(), "ccwallet-ws-")), "config.json");
    writeFileSync(config, JSON.stringify({ ledger: { maxStreamsPerUser: 1 } }));
    t = await startTestServer({ CCWALLET_CONFIG: config });
    dave = await t.partyUser("dave");
  });
  afterAll(() => t?.stop());

  it("refuses a stream past the caller's limit with the service's error frame; closes open sockets with 1001 on shutdown", async () => {
    const request = JSON.stringify({ parties: [dave.party] });
    const first = await connect(t, "/v2/commands/completions", dave.token);
    first.ws.send(request);
    await waitFor(() => t.server.api.streams.open === 1);
    const second = await connect(t, "/v2/commands/completions", dave.token);
    second.ws.send(request);
    const refused = await second.next();
    expect(refused.code).toBe("MAXIMUM_NUMBER_OF_STREAMS");
    expect((await second.closed).code).toBe(1011);
    await t.stop();
    expect((await first.closed).code).toBe(1001);
  });
});

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("WebSocket streams: sockets waiting for their request frame", () => {
  let t: TestServer;
  let erin: Who;
  let fred: Who;
  beforeAll(async () => {
    const config = join(mkdtempSync(join(tmpdir(), "ccwallet-ws-")), "config.json");
    writeFileSync(config, JSON.stringify({ ledger: { maxStreams: 3, maxStreamsPerUser: 2 } }));
    t = await startTestServer({ CCWALLET_CONFIG: config });
    erin = await t.partyUser("erin");
    fred = await t.partyUser("fred");
  });
  afterAll(() => t?.stop());

  it("are bounded per user and in all, as streams are: past a user's share 429, past the ceiling 503; a request frame frees the place", async () => {
    const request = JSON.stringify({ beginExclusive: 0, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [erin.party]: {} } }, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } } });
    const erins = await Promise.all([0, 1].map(() => connect(t, "/v2/updates", erin.token)));
    const third = await open(t, "/v2/updates", erin.token);
    expect("refused" in third && [third.refused.status, third.refused.body.code, third.refused.body.errorCategory]).toEqual([429, "MAXIMUM_NUMBER_OF_STREAMS", 2]);
    // Another user still has its place, up to the ceiling of 3 in all.
    const freds = [await connect(t, "/v2/updates", fred.token)];
    const refused = await open(t, "/v2/updates", fred.token);
    expect("refused" in refused && refused.refused.status).toBe(503);
    expect("refused" in refused && refused.refused.body.cause).toMatch(/waiting for their request frame \(3\)/);
    // Worth retrying: Canton's SERVICE_NOT_RUNNING, a transient failure (category 1), not a bad request.
    expect("refused" in refused && [refused.refused.body.code, refused.refused.body.errorCategory]).toEqual(["SERVICE_NOT_RUNNING", 1]);
    // One sends its request (it becomes a stream, under the stream limits): its user may wait again.
    erins[0].ws.send(request);
    await erins[0].next();
    const later = await open(t, "/v2/updates", erin.token);
    expect("ws" in later).toBe(true);
    for (const c of [...erins, ...freds, later]) if ("ws" in c) c.ws.close();
  });

  it("does not count refused upgrades, even from clients that never close their side", async () => {
    const port = Number(new URL(t.http).port);
    const sockets = await Promise.all(
      [0, 1, 2, 3].map(
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connectTcp({ port, host: "127.0.0.1", allowHalfOpen: true }, () =>
              socket.write(
                "GET /v2/updates HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: jwt.token.garbage, daml.ws.auth\r\n\r\n",
              ),
            );
            socket.on("error", () => undefined);
            socket.once("data", () => resolve(socket)); // the 401; the client keeps its side open
          }),
      ),
    );
    const valid = await open(t, "/v2/updates", fred.token);
    expect("ws" in valid).toBe(true);
    if ("ws" in valid) valid.ws.close();
    for (const socket of sockets) socket.destroy();
  });
});


describe("WebSocket streams: a slow identity provider", () => {
  let t: TestServer;
  let gina: Who;
  let provider: Server;
  const hanging: import("node:http").ServerResponse[] = [];
  beforeAll(async () => {
    // A JWKS endpoint that never answers: every token with a key id waits for it (up to jose's 5 s).
    provider = createServer((_req, res) => void hanging.push(res));
    await new Promise<void>((r) => provider.listen(0, "127.0.0.1", r));
    const port = (provider.address() as { port: number }).port;
    const config = join(mkdtempSync(join(tmpdir(), "ccwallet-ws-")), "config.json");
    writeFileSync(config, JSON.stringify({ ledger: { maxStreams: 3, maxStreamsPerUser: 2 } }));
    t = await startTestServer({ CCWALLET_CONFIG: config, CCWALLET_AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks` });
    gina = await t.partyUser("gina");
  });
  afterAll(async () => {
    await t?.stop();
    for (const res of hanging) res.destroy();
    provider?.close();
  });

  it("lets no anonymous upgrade hold a waiting place while its token is checked (they locked every user out)", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await Promise.all(
      [0, 1, 2, 3].map((i) => new SignJWT({ scope: "daml_ledger_api" }).setProtectedHeader({ alg: "RS256", kid: `k${i}` }).setSubject("nobody").setExpirationTime("1h").sign(privateKey)),
    );
    const pending = forged.map((token) => open(t, "/v2/updates", token).catch(() => undefined));
    await waitFor(() => hanging.length > 0);
    const c = await open(t, "/v2/updates", gina.token);
    expect("ws" in c).toBe(true);
    if ("ws" in c) c.ws.close();
    for (const res of hanging) res.destroy();
    await Promise.all(pending);
  }, 20_000);
});
