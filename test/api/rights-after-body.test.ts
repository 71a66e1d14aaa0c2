/**
 * Rights count when a request has arrived, not when its headers did. The JSON gateways check the
 * caller before they read a body (a bad caller is refused first), but a body may take minutes and
 * a WebSocket request frame may come seconds after the upgrade: rights revoked, a user deleted or
 * offboarded meanwhile must refuse the request, as they refuse one sent after the change.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createIou, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let owner: { party: string; user: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  owner = await s.partyUser("rab-owner");
});
afterAll(() => s?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A user with `rights` on the owner's party, and its token. */
async function userWith(id: string, rights: unknown[]): Promise<string> {
  const r = await s.json("POST", "/v2/users", { user: { id, primaryParty: owner.party }, rights });
  expect(r.status, r.text).toBe(200);
  return s.token(id);
}

const actAs = (party: string) => ({ kind: { CanActAs: { value: { party } } } });
const readAs = (party: string) => ({ kind: { CanReadAs: { value: { party } } } });

/**
 * POSTs `body` in two parts: the headers and the first bytes, then, once `between` has run (the
 * server has long checked the caller by then), the rest.
 */
function slowPost(path: string, token: string, body: string, between: () => Promise<void>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${s.http}${path}`,
      { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text === "" ? undefined : JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.write(body.slice(0, 10));
    void sleep(200)
      .then(between)
      .then(() => req.end(body.slice(10)), reject);
  });
}

async function iousOf(party: string): Promise<number> {
  const end = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
  const r = await s.json("POST", "/v2/state/active-contracts", { eventFormat: { filtersByParty: { [party]: { cumulative: [] } } }, activeAtOffset: end }, owner.token);
  expect(r.status, r.text).toBe(200);
  return (r.body as any[]).filter((e) => e.contractEntry.JsActiveContract?.createdEvent.templateId.endsWith(":Ccwallet.Demo.Iou:Iou")).length;
}

describe("/v2: the caller is found again once the body has arrived", () => {
  it("a right revoked while the body was on its way refuses the command, and nothing is committed", async () => {
    const token = await userWith("rab-revoked", [actAs(owner.party)]);
    const before = await iousOf(owner.party);
    const r = await slowPost("/v2/commands/submit-and-wait", token, JSON.stringify(createIou(owner.party, "1", owner.party, "rab-1").commands), async () => {
      const revoked = await s.json("PATCH", "/v2/users/rab-revoked/rights", { userId: "rab-revoked", rights: [actAs(owner.party)] });
      expect(revoked.body.newlyRevokedRights).toHaveLength(1);
    });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("PERMISSION_DENIED");
    expect(await iousOf(owner.party)).toBe(before);
  });

  it("a user deleted while the body was on its way is refused", async () => {
    const token = await userWith("rab-deleted", [actAs(owner.party)]);
    const before = await iousOf(owner.party);
    const r = await slowPost("/v2/commands/submit-and-wait", token, JSON.stringify(createIou(owner.party, "1", owner.party, "rab-2").commands), async () => {
      expect((await s.json("DELETE", "/v2/users/rab-deleted")).status).toBe(200);
    });
    expect(r.status).toBe(403);
    expect(r.body.cause).toMatch(/rab-deleted does not exist/);
    expect(await iousOf(owner.party)).toBe(before);
  });

  it("the same request with the right kept commits (the slow body itself is fine)", async () => {
    const token = await userWith("rab-kept", [actAs(owner.party)]);
    const before = await iousOf(owner.party);
    const r = await slowPost("/v2/commands/submit-and-wait", token, JSON.stringify(createIou(owner.party, "1", owner.party, "rab-3").commands), async () => undefined);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await iousOf(owner.party)).toBe(before + 1);
  });
});

describe("WebSocket streams: the caller is found again when the request frame arrives", () => {
  it("a read right revoked between the upgrade and the frame sends no contract", async () => {
    const token = await userWith("rab-reader", [readAs(owner.party)]);
    expect((await s.json("POST", "/v2/commands/submit-and-wait", createIou(owner.party, "2", owner.party, "rab-ws").commands, owner.token)).status).toBe(200);
    const ws = new WebSocket(`${s.http.replace("http", "ws")}/v2/state/active-contracts`, [`jwt.token.${token}`, "daml.ws.auth"]);
    const frames: any[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(d.toString())));
    const closed = new Promise<number>((r) => ws.on("close", (code) => r(code)));
    await new Promise<void>((resolve, reject) => (ws.once("open", () => resolve()), ws.once("error", reject)));
    const revoked = await s.json("PATCH", "/v2/users/rab-reader/rights", { userId: "rab-reader", rights: [readAs(owner.party)] });
    expect(revoked.body.newlyRevokedRights).toHaveLength(1);
    const end = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
    ws.send(JSON.stringify({ eventFormat: { filtersByParty: { [owner.party]: { cumulative: [] } } }, activeAtOffset: end }));
    await closed;
    expect(frames.filter((f) => f.contractEntry)).toEqual([]);
    expect(frames.map((f) => f.code)).toContain("PERMISSION_DENIED");
  });
});

describe("/v0: the wallet user is found again once the body has arrived", () => {
  it("a user offboarded while a tap's body was on its way gets nothing", async () => {
    const operator = await s.token("administrator");
    const onboarded = await s.json("POST", "/v0/admin/users", { name: "rab-wallet" }, operator);
    expect(onboarded.status, onboarded.text).toBe(200);
    const party = onboarded.body.party_id as string;
    const token = await s.token("rab-wallet");
    const r = await slowPost("/v0/wallet/tap", token, JSON.stringify({ amount: "25" }), async () => {
      expect((await s.json("POST", "/v0/admin/users/offboard?username=rab-wallet", undefined, operator)).status).toBe(200);
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.body.error).toBeTypeOf("string");
    // The party's holdings, read by a user given the right to read them: none was minted.
    await s.json("POST", "/v2/users", { user: { id: "rab-wallet-reader", primaryParty: party }, rights: [readAs(party)] });
    const end = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
    const acs = await s.json("POST", "/v2/state/active-contracts", { eventFormat: { filtersByParty: { [party]: { cumulative: [] } } }, activeAtOffset: end }, await s.token("rab-wallet-reader"));
    expect(acs.status, acs.text).toBe(200);
    expect((acs.body as any[]).filter((e) => e.contractEntry.JsActiveContract?.createdEvent.templateId.endsWith(":Splice.Amulet:Amulet"))).toEqual([]);
  });
});

