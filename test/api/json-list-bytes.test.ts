/**
 * An array answer (`/v2` server streams in their JSON form) is held in memory until the client
 * reads it, so it is bounded in bytes as well as in elements: past CCWALLET_HTTP_LIST_MAX_BYTES it
 * is a 413 in Canton's shape, and fewer elements (`limit`) fit. Found by hostile round 4: one
 * user's sixty 3.5 MB contracts made each ACS read a 218 MB answer, twenty of them took the node
 * to 6 GB and stalled it for minutes. Answers held at once are bounded together too
 * (CCWALLET_HTTP_LISTS_MAX_BYTES: round 6 held 189 answers of 32 MiB its clients never read);
 * past it a request gets Canton's PARTICIPANT_BACKPRESSURE, and what an answer held is given back
 * once it has left.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; token: string };
beforeAll(async () => {
  s = await startTestServer({ CCWALLET_HTTP_LIST_MAX_BYTES: "100000" });
  alice = await s.partyUser("list-bytes");
});
afterAll(() => s?.stop());

describe("array answers bounded in bytes", () => {
  it("answers 413 past the byte limit, and serves what fits", async () => {
    for (let i = 0; i < 3; i++) {
      const r = await s.json(
        "POST",
        "/v2/commands/submit-and-wait",
        { commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: alice.party, owner: alice.party, currency: `${i}`.repeat(40_000), amount: "1", observers: [] } } }], commandId: `big-${i}`, actAs: [alice.party] },
        alice.token,
      );
      expect(r.status, r.text).toBe(200);
    }
    const end = (await s.json("GET", "/v2/state/ledger-end", undefined, alice.token)).body.offset;
    const request = { eventFormat: { filtersByParty: { [alice.party]: {} } }, activeAtOffset: end };
    const all = await s.json("POST", "/v2/state/active-contracts", request, alice.token);
    expect([all.status, all.body.code]).toEqual([413, "HTTP_LIST_TOO_LARGE"]);
    expect(all.body.cause).toMatch(/exceeds the server's limit of 100000 bytes/);
    const two = await s.json("POST", "/v2/state/active-contracts?limit=2", request, alice.token);
    expect(two.status, two.text.slice(0, 200)).toBe(200);
    expect(two.body).toHaveLength(2);
    expect(Buffer.byteLength(two.text)).toBeLessThan(100_000);
  });
});

describe("array answers bounded together", () => {
  let t: TestServer;
  let bob: { party: string; token: string };
  beforeAll(async () => {
    t = await startTestServer({ CCWALLET_HTTP_LIST_MAX_BYTES: "100000", CCWALLET_HTTP_LISTS_MAX_BYTES: "60000" });
    bob = await t.partyUser("lists-bytes");
    for (let i = 0; i < 2; i++) {
      const r = await t.json(
        "POST",
        "/v2/commands/submit-and-wait",
        { commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bob.party, owner: bob.party, currency: `${i}`.repeat(40_000), amount: "1", observers: [] } } }], commandId: `held-${i}`, actAs: [bob.party] },
        bob.token,
      );
      expect(r.status, r.text).toBe(200);
    }
  });
  afterAll(() => t?.stop());

  it("gives back what was held for clients that left before their answer, at any point", async () => {
    const end = (await t.json("GET", "/v2/state/ledger-end", undefined, bob.token)).body.offset;
    const body = JSON.stringify({ eventFormat: { filtersByParty: { [bob.party]: {} } }, activeAtOffset: end });
    const port = Number(new URL(t.http).port);
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.write(`POST /v2/state/active-contracts?limit=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${bob.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
          socket.destroy(); // gone before the node has even authenticated it
          resolve();
        });
      });
    }
    await new Promise((r) => setTimeout(r, 300));
    const one = await t.json("POST", "/v2/state/active-contracts?limit=1", JSON.parse(body), bob.token);
    expect(one.status, one.text.slice(0, 200)).toBe(200);
  });

  it("refuses with backpressure what would pass the budget, and gives back what an answer held", async () => {
    const end = (await t.json("GET", "/v2/state/ledger-end", undefined, bob.token)).body.offset;
    const request = { eventFormat: { filtersByParty: { [bob.party]: {} } }, activeAtOffset: end };
    const both = await t.json("POST", "/v2/state/active-contracts", request, bob.token);
    expect([both.status, both.body.code, both.body.errorCategory]).toEqual([409, "PARTICIPANT_BACKPRESSURE", 2]);
    for (let i = 0; i < 5; i++) {
      const one = await t.json("POST", "/v2/state/active-contracts?limit=1", request, bob.token);
      expect([i, one.status]).toEqual([i, 200]);
    }
  });
});

