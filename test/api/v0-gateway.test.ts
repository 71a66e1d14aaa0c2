/**
 * The `/v0` and registry routes on the JSON gateway over real HTTP: every annotated path (bare,
 * under `/api/validator`, registry behind the scan proxy) is served; auth policies; strict decoding
 * before any handler runs; Splice `{error}` bodies and status codes from one mapping.
 */
import { create, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExternalPartyAdminService } from "../../gen/ccwallet/validator/v0/external_party_admin_service_pb.js";
import { ScanProxyService } from "../../gen/ccwallet/validator/v0/scan_proxy_service_pb.js";
import { TokenStandardRegistryService } from "../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import { ValidatorAdminService } from "../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import { ValidatorService } from "../../gen/ccwallet/validator/v0/validator_service_pb.js";
import { CreateTransferPreapprovalResponseSchema } from "../../gen/ccwallet/wallet/v0/wallet_internal_pb.js";
import { WalletService } from "../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { coinAdminHandlers, coinWalletHandlers, registryHandlers, scanProxyHandlers } from "../../src/api/services/wallet/coin-handlers.js";
import { isNotYet } from "../../src/api/services/wallet/handlers/not-yet.js";
import { conflictWithResult } from "../../src/api/services/wallet/index.js";
import { routesOf, type Route } from "../../src/api/http/route-table.js";
import { httpStatusOfKind, spliceErrorOf } from "../../src/api/http/splice-error.js";
import { spliceKeyOf, toSpliceJson } from "../../src/api/http/splice-json.js";
import { spliceAliases } from "../../src/api/http/splice-routes.js";
import { errors } from "../../src/ledger/errors.js";
import { WalletError, walletErrors, type WalletErrorKind } from "../../src/wallet/index.js";
import { loadOpenApi, OPENAPI_DIR, ResponseLog } from "../support/openapi-validator.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let operator: string;
let alice: string;
const log = new ResponseLog();
const openapi = loadOpenApi();

const SERVICES: DescService[] = [WalletService, ValidatorService, ValidatorAdminService, ExternalPartyAdminService, ScanProxyService, TokenStandardRegistryService];
/** Endpoints still answering 501: those whose handler is a `notYet` stub. */
const stubsOf = (svc: DescService, handlers: object) =>
  Object.entries(handlers)
    .filter(([, h]) => isNotYet(h))
    .map(([name]) => `${svc.typeName}.${name}`);
const STUBS = new Set([
  ...stubsOf(WalletService, coinWalletHandlers),
  ...stubsOf(ValidatorAdminService, coinAdminHandlers),
  ...stubsOf(ScanProxyService, scanProxyHandlers),
  ...stubsOf(TokenStandardRegistryService, registryHandlers),
]);
/** The gateway's own 404 (no route), as opposed to a handler's "not found" about the request's content. */
const noRoute = (r: { status: number; body: { error?: string } }) => r.status === 404 && /^The requested resource could not be found/.test(r.body.error ?? "");

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const r = await s.json(method, path, body, token);
  log.add(method, path, r.status, r.body);
  return r;
}

beforeAll(async () => {
  s = await startTestServer();
  operator = await s.token("administrator");
  await s.json("POST", "/v0/admin/users", { name: "alice" }, operator);
  alice = await s.token("alice");
});
afterAll(() => s?.stop());

/** A well-typed request for a route: required fields at their defaults, path variables filled in. */
function sampleRequest(route: Route): { path: string; body?: unknown } {
  let path = route.template;
  const input = route.method.input as DescMessage;
  const message = create(input) as unknown as Record<string, unknown>;
  // A required google.protobuf.Value (any JSON) has no default the encoder can print: use null.
  for (const f of input.fields) if (f.fieldKind === "message" && f.message.typeName === "google.protobuf.Value") message[f.localName] = create(ValueSchema, { kind: { case: "nullValue", value: 0 } });
  const json = toSpliceJson(input, message as never) as Record<string, unknown>;
  for (const v of route.variables) {
    path = path.replace(new RegExp(`\\{${v}\\}`), "00ab");
    delete json[spliceKeyOf(input.fields.find((f) => f.name === v)!)];
  }
  if (route.body === "*") return { path, body: json };
  const query = new URLSearchParams(Object.entries(json).filter(([, v]) => typeof v === "string") as [string, string][]);
  return { path: query.size ? `${path}?${query}` : path };
}

describe("routes", () => {
  const routes = routesOf(SERVICES, { dialect: "splice", aliases: spliceAliases });

  it("serves every annotated path, bare and aliased: stubs answer 501, the others never 405/501 nor the no-route 404", async () => {
    // 54 `/v0` methods + 4 alias bindings, each bare and under /api/validator; 11 registry methods
    // (transfer instruction 4, allocation 4, token metadata 3) at 3 places (the scan service has its own suite)
    expect(SERVICES.reduce((n, svc) => n + svc.methods.length, 0)).toBe(65);
    expect(routes.length).toBe((54 + 4) * 2 + 11 * 3);
    for (const route of routes) {
      const { path, body } = sampleRequest(route);
      const r = await call(route.httpMethod, path, operator, body);
      const where = `${route.httpMethod} ${path} -> ${r.status} ${r.text}`;
      if (STUBS.has(`${route.method.parent.typeName}.${route.method.localName}`)) expect(r.status, where).toBe(501);
      else {
        expect([405, 501], where).not.toContain(r.status);
        expect(noRoute(r), where).toBe(false);
      }
      expect(r.body, where).toEqual(expect.any(Object));
    }
  });

  it("serves the mission's aliases: /v0/wallet/coins and body-addressed transfer-offer actions", async () => {
    // `/coins` is not in the OpenAPI: not logged for the OpenAPI check.
    expect((await s.json("GET", "/v0/wallet/coins", undefined, alice)).status).toBe(200);
    expect((await s.json("GET", "/api/validator/v0/wallet/coins", undefined, alice)).status).toBe(200);
    for (const action of ["accept", "reject", "withdraw"]) {
      const unknown = await call("POST", `/v0/wallet/transfer-offers/${action}`, alice, { contract_id: "00ab" });
      expect(unknown).toMatchObject({ status: 404, body: { error: "transfer offer 00ab not found" } });
      const missing = await call("POST", `/v0/wallet/transfer-offers/${action}`, alice, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: "Invalid request: contract_id: missing required field" });
    }
  });

  it("answers unknown paths and methods in each dialect's shape", async () => {
    for (const p of ["/v0/nothing", "/api/validator/v0/nothing", "/registry/nothing", "/api/validator/v2/version"]) {
      const r = await call("GET", p, null);
      expect(r.status).toBe(404);
      expect(r.body.error).toMatch(/could not be found/);
    }
    const wrong = await call("PUT", "/v0/admin/users", operator);
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ error: "HTTP method PUT is not allowed on /v0/admin/users" });
    // Every /v2 error is a JsCantonError, unknown routes too (issue #10).
    expect((await s.json("GET", "/v2/nothing", undefined, null)).body).toMatchObject({ code: "NOT_FOUND", cause: "The requested resource could not be found." });
    const v2 = await s.json("GET", "/v2/version", undefined, null);
    expect(v2.status).toBe(200);
  });
});

describe("auth policies", () => {
  it("wallet endpoints: 401 without a valid token, 403 for users without a wallet here", async () => {
    const noToken = await call("GET", "/v0/wallet/balance", null);
    expect(noToken).toMatchObject({ status: 401, body: { error: "missing or invalid bearer token: no Authorization header" } });
    expect((await call("GET", "/v0/wallet/balance", "not-a-jwt")).status).toBe(401);
    const stranger = await call("GET", "/v0/wallet/balance", await s.token("stranger"));
    expect(stranger).toMatchObject({ status: 403, body: { error: "user stranger does not exist" } });
    const plain = await s.partyUser("plain");
    const notOnboarded = await call("POST", "/v0/wallet/tap", plain.token, { amount: "10" });
    expect(notOnboarded).toMatchObject({ status: 403, body: { error: `user ${plain.user} is not onboarded to a wallet on this validator` } });
    expect((await call("POST", "/v0/wallet/tap", alice, { amount: "10" })).status).toBe(200);
  });

  it("a deactivated user is refused", async () => {
    expect((await s.json("POST", "/v2/users", { user: { id: "dee", primaryParty: "", isDeactivated: true }, rights: [] })).status).toBe(200);
    expect((await call("POST", "/v0/admin/users", operator, { name: "dee" })).status).toBe(200);
    expect(await call("GET", "/v0/wallet/balance", await s.token("dee"))).toMatchObject({ status: 403, body: { error: "user dee is deactivated" } });
  });

  it("admin endpoints: the operator and participant admins only", async () => {
    expect((await call("GET", "/v0/admin/transfer-preapprovals", operator)).status).toBe(200);
    expect((await call("GET", "/v0/admin/transfer-preapprovals", await s.adminToken())).status).toBe(200);
    expect((await call("GET", "/v0/admin/transfer-preapprovals", alice)).status).toBe(403);
    expect((await call("DELETE", "/api/validator/v0/admin/transfer-preapprovals/by-party/bob::1220ab", alice)).status).toBe(403);
    expect((await call("GET", "/v0/admin/external-party/balance?party_id=bob::1220", null)).status).toBe(401);
  });

  it("scan-proxy reads: any valid token; registry: public", async () => {
    expect((await call("GET", "/v0/scan-proxy/dso-party-id", null)).status).toBe(401);
    expect((await call("GET", "/v0/scan-proxy/dso-party-id", await s.token("anyone-at-all"))).status).toBe(200);
    for (const prefix of ["", "/v0/scan-proxy", "/api/validator/v0/scan-proxy"]) {
      const factory = await call("POST", `${prefix}/registry/transfer-instruction/v1/transfer-factory`, null, { choiceArguments: {} });
      expect(factory.status).toBe(400);
      expect(factory.body.error).toMatch(/choiceArguments/);
      expect((await call("POST", `${prefix}/registry/transfer-instruction/v1/00ab/choice-contexts/withdraw`, null, {})).status).toBe(404);
    }
  });
});

describe("strict decoding before any handler runs", () => {
  const offer = { receiver_party_id: "bob::1220ab", amount: "1.5", description: "d", expires_at: 1_900_000_000_000_000, tracking_id: "t" };

  it("accepts a well-formed transfer offer (then the use case refuses the unknown receiver)", async () => {
    const r = await call("POST", "/v0/wallet/transfer-offers", alice, offer);
    expect(r).toMatchObject({ status: 400, body: { error: "receiver_party_id: party bob::1220ab does not exist" } });
  });

  it("refuses malformed, missing, extra and mistyped fields with 400 {error}", async () => {
    const { tracking_id: _, ...noTracking } = offer;
    const cases: [unknown, string][] = [
      ["{", "Invalid request: the body is not JSON"],
      ["[]", "Invalid request: (root): the request body must be a JSON object"],
      [noTracking, "Invalid request: tracking_id: missing required field"],
      [{ ...offer, amount: 1.5 }, "Invalid request: amount: expected a string, got number 1.5"],
      [{ ...offer, expires_at: "1900000000000000" }, 'Invalid request: expires_at: expected an integer (int64), got the string "1900000000000000"'],
      [{ ...offer, memo: "x" }, "Invalid request: memo: unknown field"],
      [{ ...offer, receiver_party_id: null }, "Invalid request: receiver_party_id: expected a string, got null"],
    ];
    for (const [body, error] of cases) {
      const r = await call("POST", "/api/validator/v0/wallet/transfer-offers", alice, body);
      expect(r.status).toBe(400);
      expect(r.body.error.startsWith(error), `${JSON.stringify(body)} -> ${r.body.error}`).toBe(true);
    }
  });

  it("types query parameters from the request fields and refuses a value given twice", async () => {
    expect(await call("GET", "/v0/wallet/minting-delegations?limit=10&after=5", alice)).toMatchObject({ status: 200, body: { delegations: [] } });
    const bad = await call("GET", "/v0/wallet/minting-delegations?limit=ten", alice);
    expect(bad).toMatchObject({ status: 400, body: { error: 'Invalid request: limit: expected an integer (int32), got the string "ten"' } });
    const twice = await call("POST", "/registry/transfer-instruction/v1/00ab/choice-contexts/accept", null, { transferInstructionId: "00cd" });
    expect(twice).toMatchObject({ status: 400, body: { error: "Invalid request: transferInstructionId: is given by the path and must not be in the body" } });
    expect((await call("POST", "/registry/transfer-instruction/v1/transfer-factory", null, {})).body).toEqual({
      error: "Invalid request: choiceArguments: missing required field",
    });
  });

  it("refuses bodies over the configured limit with 413 {error}", async () => {
    const big = { ...offer, description: "x".repeat(5 * 1024 * 1024) };
    const r = await call("POST", "/v0/wallet/transfer-offers", alice, big);
    expect(r).toMatchObject({ status: 413, body: { error: "Request entity too large" } });
  });
});

describe("error mapping", () => {
  it("maps each error kind to its status", () => {
    const table: Record<WalletErrorKind, number> = {
      "bad-request": 400,
      unauthenticated: 401,
      forbidden: 403,
      "not-found": 404,
      conflict: 409,
      "too-many-requests": 429,
      unimplemented: 501,
      unavailable: 503,
      internal: 500,
    };
    for (const [kind, status] of Object.entries(table)) {
      expect(httpStatusOfKind(kind as WalletErrorKind)).toBe(status);
      expect(spliceErrorOf(new WalletError(kind as WalletErrorKind, "m")).status).toBe(status);
    }
  });

  it("maps ledger errors by category, hides internal errors, answers a conflict with its result", () => {
    expect(spliceErrorOf(errors.contractNotFound("00ab"))).toEqual({ status: 404, body: { error: "Contract could not be found with id 00ab" } });
    expect(spliceErrorOf(errors.lockedContracts(["00ab"])).status).toBe(429);
    expect(spliceErrorOf(errors.interpretation("insufficient funds")).status).toBe(400);
    expect(spliceErrorOf(errors.duplicateCommand("c")).status).toBe(409);
    const boom = new Error("password=hunter2");
    expect(spliceErrorOf(boom)).toEqual({ status: 500, body: { error: "internal server error" }, unexpected: boom });
    expect(spliceErrorOf(walletErrors.inFlight("tracking id t is being processed"))).toEqual({ status: 429, body: { error: "tracking id t is being processed" } });
    const conflict = conflictWithResult(CreateTransferPreapprovalResponseSchema, { transferPreapprovalContractId: "00pre" }, "preapproval exists");
    expect(spliceErrorOf(conflict, CreateTransferPreapprovalResponseSchema)).toEqual({ status: 409, body: { transfer_preapproval_contract_id: "00pre" } });
    expect(spliceErrorOf(conflict)).toEqual({ status: 409, body: { error: "preapproval exists" } });
  });
});

describe(`error bodies against the Splice OpenAPI${openapi ? "" : ` (SKIPPED: ${OPENAPI_DIR} not found)`}`, () => {
  it.skipIf(!openapi)("every 200 and every documented error status above has its documented shape", () => {
    expect(log.check(openapi!, () => true).problems.filter((p) => !p.includes("no operation"))).toEqual([]);
  });
});
