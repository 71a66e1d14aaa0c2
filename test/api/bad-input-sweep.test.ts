/**
 * Every route the JSON gateway serves (read from the server's own route table, so a new endpoint
 * cannot be forgotten) gets every kind of bad input: missing, garbage, forged and expired tokens, a
 * user without rights, undecodable bodies, wrong JSON types, missing fields, unknown and foreign
 * ids, another party, out-of-range values and oversized bodies. Each answer must be a 4xx its API
 * family documents, in that family's error shape (Splice `{"error"}`; Canton JsCantonError, for
 * undecodable bodies too), and nothing may change: ledger end, balances, users, parties, wallets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Route } from "../../src/api/http/route-table.js";
import { loadOpenApi, ResponseLog } from "../support/openapi-validator.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { badTokens, bodyCases, pathValues, queryCases, send, shapeProblems, type Allowed, type SweepCase, type SweepRequest } from "./bad-input-cases.js";
import { BAD, SPECS, type BadRequest, type RouteSpec, type World } from "./bad-input-specs.js";
import { fund, onboard } from "./v0-coin-support.js";

const MAX_BODY = 65_536;

let s: TestServer;
let w: World;
let tokens: [string, string | null][];
let nobody: string;
let stranger: string;
const log = new ResponseLog();
const openapi = loadOpenApi();

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_HTTP_MAX_BODY_BYTES: String(MAX_BODY) });
  const operator = await s.token("administrator");
  const [alice, bob] = [await onboard(s, "sweep-alice"), await onboard(s, "sweep-bob")];
  await fund(s, alice.party, "100");
  await fund(s, bob.party, "100");
  const validator = s.server.network.parties.validator;
  const amulet = async (t: string) => (await s.json("GET", "/v0/wallet/amulets", undefined, t)).body.amulets[0].contract.contract.contract_id as string;
  const offer = await s.json("POST", "/v0/wallet/transfer-offers", { receiver_party_id: validator, amount: "1.0", description: "d", expires_at: Number(s.server.api.clock.now()) + 3_600_000_000, tracking_id: "sweep-offer" }, bob.token);
  expect(offer.status, offer.text).toBe(200);
  expect((await s.json("POST", "/v2/users", { user: { id: "sweep-nobody", primaryParty: "" }, rights: [] })).status).toBe(200);
  await s.server.network.automation.runNow();
  await s.server.network.automation.stop();
  let n = 0;
  w = {
    alice,
    bob,
    operator,
    admin: await s.adminToken(),
    validator,
    dso: s.server.network.parties.dso,
    synchronizerId: s.server.api.identity.synchronizerId,
    ghost: "ghost::1220" + "00".repeat(32),
    unknownCid: "00" + "ab".repeat(32),
    othersOffer: offer.body.offer_contract_id,
    ownAmulet: await amulet(alice.token),
    othersAmulet: await amulet(bob.token),
    unknownUpdateId: "1220" + "cd".repeat(32),
    end: (await s.json("GET", "/v2/state/ledger-end")).body.offset,
    fresh: (prefix) => `sweep-${prefix}-${++n}`,
    micros: (ms) => Number(s.server.api.clock.now()) + ms * 1000,
  };
  tokens = await badTokens(alice.user, s.server.secret);
  nobody = await s.token("sweep-nobody");
  stranger = await s.token("sweep-no-such-user");
}, 60_000);
afterAll(() => s?.stop());

/** The path an alias serves (`/api/validator/v0/x` and `/v0/scan-proxy/registry/x` are `/v0/x` and `/registry/x`). */
const keyOf = (r: Route) => `${r.httpMethod} ${r.template.replace(/^\/api\/validator/, "").replace(/^\/v0\/scan-proxy(?=\/registry\/)/, "")}`;
const specOf = (r: Route): RouteSpec => SPECS[keyOf(r)] ?? {};
const isRead = (r: Route) => r.httpMethod === "GET" || specOf(r).read === true;
const needsSpec = (r: Route) => r.body !== "" || queryCases(r).length > 0;

function defaultToken(r: Route): string {
  if (r.dialect === "canton") return w.admin;
  return /(ValidatorAdmin|ExternalPartyAdmin)Service$/.test(r.method.parent.typeName) ? w.operator : w.alice.token;
}

/** All the bad requests of one route. */
function casesOf(r: Route): SweepCase[] {
  const spec = specOf(r);
  const read = isRead(r);
  const extra = (a: Allowed): Allowed => (spec.unsupported && a !== "any" ? [...a, 501] : a);
  const valid = r.body === "" ? undefined : spec.valid!(w);
  const streaming = r.dialect === "canton" && r.method.methodKind === "server_streaming" ? "stream_idle_timeout_ms=50" : "";
  const request = (o: { vars?: Record<string, string>; query?: string; body?: string; token?: string | null }): SweepRequest => {
    let path = r.template;
    for (const v of r.variables) path = path.replace(new RegExp(`\\{${v}\\}`), o.vars?.[v] ?? pathValues(v, w)[0]);
    const query = [o.query ?? spec.query?.(w) ?? "", streaming].filter((q) => q !== "").join("&");
    const body = o.body ?? (valid === undefined ? undefined : JSON.stringify(valid));
    return { method: r.httpMethod, path: query ? `${path}?${query}` : path, token: o.token === undefined ? (spec.as?.(w) ?? defaultToken(r)) : o.token, body };
  };
  const cases: SweepCase[] = [];
  const add = (name: string, req: SweepRequest, allowed: Allowed, plain = false) => cases.push({ name, req, allowed: extra(allowed), plain });

  for (const [name, token] of tokens) add(name, request({ token }), spec.public ? "any" : [401]);
  if (!spec.selfService) {
    add("a valid token of a user that does not exist", request({ token: stranger }), spec.public || spec.anyUser ? "any" : [403]);
    add("a user without rights or wallet", request({ token: nobody }), spec.public || spec.anyUser ? "any" : [403]);
  }
  // Authenticate, then authorize, then validate: a bad request of a bad caller is a 401 or 403.
  const malformed = valid !== undefined ? { body: "{not json" } : spec.query ? { query: "" } : undefined;
  if (malformed) {
    add("no token and a malformed request", request({ ...malformed, token: null }), spec.public ? "any" : [401]);
    // On /v0 the caller's role is known before the body (Splice's policies); a /v2 submission's
    // authorization needs its parties, so there only authentication comes first.
    if (!spec.selfService && r.dialect === "splice") {
      add("a user without rights and a malformed request", request({ ...malformed, token: nobody }), spec.public || spec.anyUser ? "any" : [403]);
    }
  }
  for (const c of spec.binary?.(w) ?? []) {
    add(c.name, { ...request({}), body: c.body, contentType: c.contentType ?? "application/octet-stream" }, c.allowed ?? BAD);
  }
  if (valid !== undefined && !spec.binary) {
    for (const c of bodyCases(r, valid, MAX_BODY)) add(c.name, request({ body: c.body }), c.allowed, c.undecodable);
    // The body must be sent as JSON: text/plain is refused (415) even when it parses.
    add("a JSON body sent as text/plain", { ...request({}), contentType: "text/plain" }, [415]);
    if (!spec.emptyIsValid) {
      add("an empty object", request({ body: "{}" }), read ? [200, ...BAD] : BAD);
      add("a JSON null", request({ body: "null" }), read ? [200, ...BAD] : BAD);
    }
  }
  for (const [name, q] of queryCases(r)) {
    const params = new URLSearchParams(spec.query?.(w) ?? "");
    const [k, v] = q.split("=");
    params.set(k, v);
    add(name, request({ query: params.toString() }), [400]);
  }
  // The gateway's own stream parameters (the first value of a parameter counts).
  if (streaming) for (const q of ["limit=ten", "limit=-1", "stream_idle_timeout_ms=soon"]) add(`query ${q}`, request({ query: q }), [400], true);
  for (const v of r.variables) {
    for (const value of pathValues(v, w)) add(`path ${v} = ${value.slice(0, 16)}`, request({ vars: { [v]: value } }), read ? [200, ...BAD] : BAD);
  }
  if (r.variables.length === 0 && (read || (valid === undefined && spec.query))) add("the spec's request", request({}), read ? [200, ...BAD] : BAD);
  for (const b of spec.bad?.(w) ?? []) add(b.name, badRequest(b, request, valid), b.allowed ?? BAD);
  return cases;
}

function badRequest(b: BadRequest, request: (o: { vars?: Record<string, string>; query?: string; body?: string; token?: string }) => SweepRequest, valid?: Record<string, unknown>): SweepRequest {
  const body = b.raw ?? (b.body !== undefined ? JSON.stringify(b.body) : b.merge !== undefined ? JSON.stringify({ ...valid, ...b.merge }) : undefined);
  return request({ vars: b.vars, query: b.query, body, token: b.token });
}

/** What must not change: balances, users, parties, wallet users (and, apart from command rejections, the ledger end). */
async function fingerprint(): Promise<{ end: number; state: string }> {
  const get = async (path: string, token = w.admin) => (await s.json("GET", path, undefined, token)).text;
  const [end, ...state] = await Promise.all([
    get("/v2/state/ledger-end"),
    get("/v0/wallet/balance", w.alice.token),
    get("/v0/wallet/balance", w.bob.token),
    get("/v2/users?pageSize=1000"),
    get("/v2/parties"),
    get("/v0/admin/users", w.operator),
  ]);
  return { end: JSON.parse(end).offset, state: state.join("\n") };
}

/** Transactions any party saw in (after, upTo]: a rejected command may take an offset, never a transaction. */
async function transactionsBetween(after: number, upTo: number): Promise<unknown[]> {
  const anyParty = { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } };
  const r = await s.json("POST", "/v2/updates", { beginExclusive: after, endInclusive: upTo, updateFormat: { includeTransactions: { eventFormat: anyParty, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } } }, w.admin);
  expect(r.status, r.text).toBe(200);
  return r.body as unknown[];
}

/** Command submissions (and executes) write a rejection completion at an offset of its own (this ledger's design). */
const rejectionsTakeOffsets = (r: Route) =>
  (r.template.startsWith("/v2/commands/") && r.template !== "/v2/commands/completions") || r.template.startsWith("/v2/interactive-submission/execute");

describe("bad input on every endpoint", () => {
  it("knows every route the gateway serves", () => {
    const routes = s.server.httpRoutes;
    const missing = routes.filter((r) => needsSpec(r) && SPECS[keyOf(r)]?.valid === undefined && SPECS[keyOf(r)]?.query === undefined).map(keyOf);
    expect([...new Set(missing)], "routes with a body or query parameters but no spec in bad-input-specs.ts").toEqual([]);
    const stale = Object.keys(SPECS).filter((k) => !routes.some((r) => keyOf(r) === k));
    expect(stale, "specs of routes the gateway does not serve").toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(136);
  });

  it("answers each with its API's error shape and a documented 4xx, and changes nothing", async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const r of s.server.httpRoutes) {
      const before = await fingerprint();
      const answers: string[] = [];
      for (const c of casesOf(r)) {
        const res = await send(s.http, c.req);
        sent++;
        const where = `${r.httpMethod} ${c.req.path.slice(0, 90)} [${c.name}] -> ${res.status} ${res.text.slice(0, 160)}`;
        answers.push(where);
        // SWEEP_DUMP=1 prints every answer (handy when writing a spec for a new route).
        if (process.env.SWEEP_DUMP) console.log(`DUMP ${r.dialect} ${keyOf(r)} | ${c.name} | ${res.status} | ${res.text.slice(0, 100)}`);
        if (r.dialect === "splice" && res.status >= 400) log.add(c.req.method, c.req.path, res.status, JSON.parse(res.text));
        const ok = c.allowed === "any" ? res.status < 500 || (specOf(r).unsupported && res.status === 501) : c.allowed.includes(res.status);
        if (!ok) problems.push(`${where} (allowed ${c.allowed === "any" ? "any non-5xx" : c.allowed.join("/")})`);
        for (const p of shapeProblems(r.dialect, res)) if (!(specOf(r).unsupported && res.status === 501)) problems.push(`${where}: ${p}`);
        if (c.plain && r.dialect === "canton" && res.status === 400 && !/"cause":"Invalid value for: /.test(res.text)) problems.push(`${where}: an undecodable body is answered "Invalid value for: ..."`);
      }
      // An asynchronous submission is answered before its outcome commits, and a rejection takes
      // an offset: its requests settle here, or their offsets land during the next route's sweep.
      await s.server.api.ledger.drain();
      const after = await fingerprint();
      const committed = after.end === before.end ? [] : await transactionsBetween(before.end, after.end);
      const moved = after.end !== before.end && !(rejectionsTakeOffsets(r) && committed.length === 0);
      if (moved || after.state !== before.state) {
        const accepted = answers.filter((a) => / -> 2/.test(a)).join("\n  ");
        problems.push(`${keyOf(r)} changed state (end ${before.end} -> ${after.end}, ${committed.length} transactions):\n  ${before.state.replace(/\n/g, " | ")}\n  ${after.state.replace(/\n/g, " | ")}\n  ${accepted}`);
      }
    }
    console.log(`bad-input sweep: ${s.server.httpRoutes.length} routes, ${sent} bad requests`);
    expect(problems).toEqual([]);
  }, 120_000);

  it.skipIf(!openapi)("every Splice error body matches the operation's documented error schema", () => {
    expect(log.check(openapi!, (st) => st >= 400).problems.filter((p) => !p.includes("no operation"))).toEqual([]);
  });

  it("the specs' valid requests decode (so each bad case differs from an accepted request in one way only)", async () => {
    const problems: string[] = [];
    for (const r of s.server.httpRoutes) {
      const spec = specOf(r);
      if (r.body === "" || spec.unsupported || spec.binary) continue;
      const token = spec.as?.(w) ?? defaultToken(r);
      let path = r.template;
      for (const v of r.variables) path = path.replace(new RegExp(`\\{${v}\\}`), pathValues(v, w)[0]);
      const res = await send(s.http, { method: r.httpMethod, path: r.method.methodKind === "server_streaming" ? `${path}?stream_idle_timeout_ms=50` : path, token, body: JSON.stringify(spec.valid!(w)) });
      const undecodable = /"cause":"Invalid value for: /.test(res.text) || /"Invalid request: /.test(res.text);
      if (undecodable) problems.push(`${keyOf(r)} -> ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
