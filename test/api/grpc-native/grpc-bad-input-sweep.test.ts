/**
 * The gRPC half of the bad-input sweep. Every method of every service generated into gen/ (so a
 * new method is covered without touching this file) gets, over plain HTTP/2 gRPC as any gRPC
 * library sends it: missing, garbage, forged and expired tokens (also in front of an undecodable
 * body: authentication comes first), undecodable protobuf, a field of the wrong wire type, a
 * truncated field, a message over the size limit, an empty message from a user without rights,
 * and messages whose ids and parties point at nothing or at someone else. Each answer must be a
 * status Canton answers such input with, never an internal failure of ours, and nothing may change:
 * ledger end (apart from rejections' completions), balances, users, parties, wallets.
 */
import { create, toBinary, type DescField, type DescMessage, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { CommandService } from "../../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { WalletService } from "../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { readdirSync, statSync } from "node:fs";
import http2 from "node:http2";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/test-server.js";
import { badTokens } from "../bad-input-cases.js";
import { fund, onboard, type Wallet } from "../v0-coin-support.js";

/** Methods whose answer depends on no caller: Canton's version service and Splice's public reads. */
const PUBLIC = [/^com\.daml\.ledger\.api\.v2\.VersionService\//, /^ccwallet\.validator\.v0\.TokenStandardRegistryService\//, /^ccwallet\.validator\.v0\.ValidatorService\/(GetValidatorUserInfo|FeatureSupport)$/];
/** Methods a valid (even empty) request legitimately changes state with, from any user. */
const MAY_CHANGE = [/PartyManagementService\/AllocateParty$/, /ValidatorService\/Register$/, /ValidatorAdminService\/OnboardUser$/];
/**
 * Documented answers that would otherwise look like our fault: the operator's wallet is left
 * unfunded here, so a (valid) preapproval request is refused for the fee and changes nothing.
 */
const DOCUMENTED: Record<string, Code> = { "/ccwallet.wallet.v0.WalletService/CreateTransferPreapproval": Code.Unavailable };
/** Codes that would mean we failed, not the client (INTERNAL is allowed only for undecodable bytes, as grpc-java answers them). */
const OUR_FAULT = new Set([Code.Unknown, Code.Internal, Code.Unavailable, Code.DataLoss]);
const MAX_MESSAGE = 16 * 1024 * 1024;

interface Answer {
  readonly code: number;
  readonly message: string;
}

let s: TestServer;
let alice: Wallet;
let bob: Wallet;
let tokens: { readonly admin: string; readonly operator: string; readonly nobody: string };
let bad: [string, string | null][];
let session: http2.ClientHttp2Session;
const services: DescService[] = [];

beforeAll(async () => {
  s = await startTestServer();
  for (const file of pbFiles(resolve("gen"))) {
    for (const value of Object.values(await import(pathToFileURL(file).href))) {
      if (isService(value)) services.push(value);
    }
  }
  [alice, bob] = [await onboard(s, "gsweep-alice"), await onboard(s, "gsweep-bob")];
  await fund(s, alice.party, "50");
  expect((await s.json("POST", "/v2/users", { user: { id: "gsweep-nobody", primaryParty: "" }, rights: [] })).status).toBe(200);
  tokens = { admin: await s.adminToken(), operator: await s.token("administrator"), nobody: await s.token("gsweep-nobody") };
  bad = (await badTokens(alice.user, s.server.secret)).filter(([name]) => name !== "token without a subject");
  await s.server.network.automation.runNow();
  await s.server.network.automation.stop();
  session = http2.connect(s.grpc);
}, 60_000);
afterAll(async () => {
  session?.close();
  await s?.stop();
});

function pbFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return pbFiles(path);
    return name.endsWith("_pb.ts") ? [path] : [];
  });
}

function isService(v: unknown): v is DescService {
  return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "service";
}

const pathOf = (m: DescMethod) => `/${m.parent.typeName}/${m.name}`;
const isPublic = (m: DescMethod) => PUBLIC.some((re) => re.test(pathOf(m).slice(1)));

/** One gRPC call over the shared HTTP/2 session, the body sent exactly as given. */
function call(m: DescMethod, body: Buffer, token: string | null, extra: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const headers: http2.OutgoingHttpHeaders = { ":method": "POST", ":path": pathOf(m), "content-type": "application/grpc", te: "trailers", "grpc-timeout": "2S", ...extra };
    if (token !== null) headers.authorization = token.startsWith("Basic ") ? token : `Bearer ${token}`;
    const req = session.request(headers);
    let status: http2.IncomingHttpHeaders = {};
    req.on("response", (h) => (status = h));
    req.on("trailers", (t) => (status = { ...status, ...t }));
    req.on("data", () => undefined);
    req.on("end", () => {
      const code = Number(status["grpc-status"]);
      resolveAnswer({ code: Number.isNaN(code) ? -1 : code, message: decodeURIComponent(String(status["grpc-message"] ?? "")) });
    });
    req.on("error", reject);
    // A stream that accepted its request tails until its deadline: that is an accepted call.
    req.end(body);
  });
}

const frame = (bytes: Uint8Array, declaredLength = bytes.length) => {
  const b = Buffer.alloc(5 + bytes.length);
  b.writeUInt32BE(declaredLength, 1);
  b.set(bytes, 5);
  return b;
};

/** The first field's tag with a wire type it cannot have, and a length-delimited field cut short. */
function wrongWireType(input: DescMessage): Uint8Array | undefined {
  const f = input.fields[0];
  if (!f) return undefined;
  const lengthDelimited = f.fieldKind === "message" || f.fieldKind === "list" || f.fieldKind === "map" || (f.fieldKind === "scalar" && (f.scalar === 9 || f.scalar === 12));
  // Wire type 5 (fixed32) where 2 (length-delimited) belongs, or 2 with a length past the end where a varint belongs.
  return lengthDelimited ? Uint8Array.of((f.number << 3) | 5, 1, 2, 3, 4) : Uint8Array.of((f.number << 3) | 2, 50, 1);
}
const truncated = (input: DescMessage) => (input.fields[0] ? Uint8Array.of((input.fields[0].number << 3) | 2, 100, 1, 2, 3) : undefined);

/** A message whose party-like fields name someone else and whose ids name nothing. */
function pointedElsewhere(m: DescMethod, foreignParty: string): Uint8Array | undefined {
  const input = m.input;
  const init: Record<string, unknown> = {};
  for (const f of input.fields) {
    const v = valueFor(f, foreignParty, `gsweep-ghost-${m.name}`);
    if (v !== undefined) init[f.localName] = v;
  }
  return Object.keys(init).length === 0 ? undefined : toBinary(input, create(input, init as never));
}

/** A user name no one has: one per method, so a method that creates users cannot feed another. */
function valueFor(f: DescField, foreignParty: string, ghostUser: string): unknown {
  const name = f.name.toLowerCase();
  const isString = (f.fieldKind === "scalar" || f.fieldKind === "list") && f.scalar === 9;
  if (!isString) return undefined;
  const one = /part(y|ies)|act_as|read_as|owner|receiver|sender|provider|beneficiar/.test(name)
    ? foreignParty
    : /contract_id|_cid$|update_id|offer_id|tracking_id|instruction/.test(name)
      ? "00" + "ab".repeat(32)
      : /user_id|^user$|username|^name$/.test(name)
        ? ghostUser
        : undefined;
  if (one === undefined) return undefined;
  return f.fieldKind === "list" ? [one] : one;
}

/** The token that passes a method's auth: participant admin for /v2, the operator for admin services, else a wallet user. */
function rightToken(m: DescMethod): string {
  const service = m.parent.typeName;
  if (service.startsWith("com.daml.")) return tokens.admin;
  return /Admin/.test(service) ? tokens.operator : alice.token;
}

interface SweepCase {
  readonly name: string;
  readonly body: Buffer;
  readonly token: string | null;
  readonly allowed: (a: Answer) => boolean;
}

const is = (...codes: Code[]) => (a: Answer) => codes.includes(a.code);
/** An answer that blames the request (or is documented for this method), not us. */
const notOurFault = (m: DescMethod) => (a: Answer) => a.code >= 0 && (!OUR_FAULT.has(a.code) || DOCUMENTED[pathOf(m)] === a.code);
const EMPTY = frame(new Uint8Array());
const GARBAGE = frame(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff));

function casesOf(m: DescMethod): SweepCase[] {
  const open = isPublic(m);
  const fine = notOurFault(m);
  const cases: SweepCase[] = [];
  const add = (name: string, body: Buffer | undefined, token: string | null, allowed: (a: Answer) => boolean) => body && cases.push({ name, body, token, allowed });
  for (const [name, token] of bad) {
    add(name, EMPTY, token, open ? fine : is(Code.Unauthenticated));
    add(`${name}, undecodable body`, GARBAGE, token, open ? (a) => a.code !== -1 : is(Code.Unauthenticated));
  }
  const undecodable = (a: Answer) => (a.code === Code.Internal || a.code === Code.InvalidArgument) && /protobuf|parse|premature|invalid/i.test(a.message);
  add("undecodable protobuf", GARBAGE, rightToken(m), undecodable);
  const wire = wrongWireType(m.input);
  add("the first field with the wrong wire type", wire && frame(wire), rightToken(m), (a) => undecodable(a) || fine(a));
  const cut = truncated(m.input);
  add("a length-delimited field cut short", cut && frame(cut), rightToken(m), undecodable);
  add("a message declared over the size limit", frame(Uint8Array.of(1, 2, 3), MAX_MESSAGE + 1), rightToken(m), is(Code.ResourceExhausted));
  add("two messages on a unary or server-streaming call", Buffer.concat([EMPTY, EMPTY]), rightToken(m), is(Code.Unimplemented, Code.InvalidArgument));
  if (!open) add("a user without rights", EMPTY, tokens.nobody, fine);
  add("an empty message", EMPTY, rightToken(m), fine);
  const elsewhere = pointedElsewhere(m, bob.party);
  add("ids of nothing and another user's party (as alice)", elsewhere && frame(elsewhere), alice.token, fine);
  add("ids of nothing and another user's party (as its own caller)", elsewhere && frame(elsewhere), rightToken(m), fine);
  return cases;
}

async function fingerprint(): Promise<{ end: number; state: string }> {
  const get = async (path: string, token = tokens.admin) => (await s.json("GET", path, undefined, token)).text;
  const [end, ...state] = await Promise.all([
    get("/v2/state/ledger-end"),
    get("/v0/wallet/balance", alice.token),
    get("/v0/wallet/balance", bob.token),
    get("/v2/users?pageSize=1000"),
    get("/v2/parties"),
    get("/v0/admin/users", tokens.operator),
  ]);
  return { end: JSON.parse(end).offset, state: state.join("\n") };
}

async function transactionsBetween(after: number, upTo: number): Promise<unknown[]> {
  const anyParty = { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } };
  const r = await s.json("POST", "/v2/updates", { beginExclusive: after, endInclusive: upTo, updateFormat: { includeTransactions: { eventFormat: anyParty, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } } });
  expect(r.status, r.text).toBe(200);
  return r.body as unknown[];
}

describe("bad input on every gRPC method", () => {
  it("finds the services in gen/", () => {
    const names = services.map((svc) => svc.typeName);
    expect(names).toContain("com.daml.ledger.api.v2.CommandService");
    expect(names).toContain("ccwallet.wallet.v0.WalletService");
    expect(services.flatMap((svc) => svc.methods).length).toBeGreaterThanOrEqual(60);
  });

  it("answers each with the status Canton would and changes nothing", async () => {
    const problems: string[] = [];
    const unimplemented: string[] = [];
    let sent = 0;
    for (const svc of services) {
      for (const m of svc.methods) {
        if (m.methodKind === "client_streaming" || m.methodKind === "bidi_streaming") continue;
        const probe = await call(m, EMPTY, rightToken(m));
        if (probe.code === Code.Unimplemented && /method not found/.test(probe.message)) {
          unimplemented.push(pathOf(m));
          continue;
        }
        const before = await fingerprint();
        const answers: string[] = [];
        for (const c of casesOf(m)) {
          const a = await call(m, c.body, c.token);
          sent++;
          const line = `${pathOf(m)} [${c.name}] -> ${Code[a.code] ?? a.code} ${a.message.slice(0, 140)}`;
          answers.push(line);
          if (process.env.SWEEP_DUMP) console.log(`DUMP ${line}`);
          if (!c.allowed(a)) problems.push(line);
        }
        if (MAY_CHANGE.some((re) => re.test(pathOf(m)))) continue;
        const after = await fingerprint();
        const committed = after.end === before.end ? [] : await transactionsBetween(before.end, after.end);
        if (committed.length > 0 || after.state !== before.state) {
          problems.push(`${pathOf(m)} changed state (end ${before.end} -> ${after.end}, ${committed.length} transactions):\n  ${answers.filter((l) => / -> OK|DeadlineExceeded/.test(l)).join("\n  ")}`);
        }
      }
    }
    console.log(`gRPC bad-input sweep: ${sent} bad calls; unimplemented: ${unimplemented.join(", ") || "none"}`);
    expect(problems).toEqual([]);
    // A method generated but not served must be a decision, not an accident.
    expect(unimplemented).toEqual([]);
  }, 180_000);

  it("authenticates before validating on gRPC-Web and the Connect protocol too", async () => {
    for (const transport of [createGrpcWebTransport({ baseUrl: s.grpc, httpVersion: "2" }), createConnectTransport({ baseUrl: s.grpc, httpVersion: "2" })]) {
      const headers = { authorization: "Bearer not-a-jwt" };
      const submit = await createClient(CommandService, transport).submitAndWait({}, { headers }).catch((e: unknown) => ConnectError.from(e));
      expect((submit as ConnectError).code).toBe(Code.Unauthenticated);
      const tap = await createClient(WalletService, transport).tap({ amount: "-1" }).catch((e: unknown) => ConnectError.from(e));
      expect((tap as ConnectError).code).toBe(Code.Unauthenticated);
      expect((tap as ConnectError).rawMessage).toMatch(/^missing or invalid bearer token: /);
    }
  });
});
