/**
 * Helpers for the `/v0` Canton Coin suites: onboarding through the API, reading a party's
 * contracts back through `/v2/state/active-contracts` (what a client sees), and the one shortcut —
 * minting CC with `AmuletRules_DevNet_Tap` through the node's own ledger client, because the tap
 * endpoint is not part of these suites.
 */
import { createClient, type Client } from "@connectrpc/connect";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { expect } from "vitest";
import { ValidatorAdminService } from "../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import { WalletService } from "../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { LedgerClient } from "../../src/ledger/ledger-client.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { tap } from "../../src/wallet/use-cases/tap.js";
import { newWalletLocal, type WalletDeps } from "../../src/wallet/wallet-deps.js";
import { ResponseLog } from "../support/openapi-validator.js";
import type { TestServer } from "../support/test-server.js";

export const DAY = 86_400_000_000n;

/** The node's collaborators as the wallet use cases get them, for setup that has no endpoint here. */
export function ccDeps(s: TestServer): WalletDeps {
  const { api } = s.server;
  return { ...s.server.wallet, client: new LedgerClient(api.ledger, "administrator", api.namespace), local: newWalletLocal() };
}

export async function fund(s: TestServer, party: string, amount: string): Promise<void> {
  await tap(ccDeps(s), party, Numeric.parse(amount));
}

export interface Wallet {
  readonly user: string;
  readonly party: string;
  readonly token: string;
}

export async function onboard(s: TestServer, name: string): Promise<Wallet> {
  const r = await s.json("POST", "/v0/admin/users", { name }, await s.token("administrator"));
  expect(r.status, r.text).toBe(200);
  return { user: name, party: r.body.party_id, token: await s.token(name) };
}

export async function operatorWallet(s: TestServer): Promise<Wallet> {
  const token = await s.token("administrator");
  return { user: "administrator", party: s.server.network.parties.validator, token };
}

export interface Created {
  readonly templateId: string;
  readonly contractId: string;
  readonly createArgument: any;
}

/** The party's active contracts as `/v2/state/active-contracts` shows them to the wallet's user. */
export async function acs(s: TestServer, w: Wallet): Promise<Created[]> {
  const end = (await s.json("GET", "/v2/state/ledger-end", undefined, w.token)).body.offset;
  const filter = { filtersByParty: { [w.party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } };
  const r = await s.json("POST", "/v2/state/active-contracts", { eventFormat: filter, activeAtOffset: end }, w.token);
  expect(r.status, r.text).toBe(200);
  return (r.body as any[]).map((e) => e.contractEntry.JsActiveContract.createdEvent as Created);
}

/** Contracts of one template (`Module.Path:Entity`). */
export const ofTemplate = (all: Created[], entity: string) => all.filter((c) => c.templateId.endsWith(`:${entity}`));

/** The initial amounts of the party's own unlocked Amulets, summed. */
export async function amuletTotal(s: TestServer, w: Wallet): Promise<string> {
  const mine = ofTemplate(await acs(s, w), "Splice.Amulet:Amulet").filter((c) => c.createArgument.owner === w.party);
  return mine.reduce((sum, c) => sum.add(Numeric.parse(c.createArgument.amount.initialAmount)), Numeric.zero).toString();
}

/** A `/v0` JSON call whose response is kept for the OpenAPI check. */
export function caller(s: TestServer, log: ResponseLog) {
  return async (method: string, path: string, w: Wallet | string | null, body?: unknown) => {
    const token = w === null ? null : typeof w === "string" ? w : w.token;
    const r = await s.json(method, path, body, token);
    log.add(method, path, r.status, r.body);
    return r;
  };
}

export interface GrpcClients {
  readonly wallet: Client<typeof WalletService>;
  readonly admin: Client<typeof ValidatorAdminService>;
}

export function grpcClients(s: TestServer): GrpcClients {
  const transport = createGrpcTransport({ baseUrl: s.grpc });
  return { wallet: createClient(WalletService, transport), admin: createClient(ValidatorAdminService, transport) };
}

export const bearer = (w: Wallet | string) => ({ headers: { authorization: `Bearer ${typeof w === "string" ? w : w.token}` } });

/**
 * Holds every ledger submission until `release()`, so a test can have a request in flight while
 * it sends another one (deterministic 429s); `entered` resolves when the first one is held.
 */
export function holdSubmissions(s: TestServer): { entered: Promise<void>; release(): void } {
  const ledger = s.server.api.ledger;
  const submit = ledger.submit;
  let enter!: () => void;
  let open!: () => void;
  const entered = new Promise<void>((r) => (enter = r));
  const gate = new Promise<void>((r) => (open = r));
  ledger.submit = async (submission) => {
    enter();
    await gate;
    return submit.call(ledger, submission);
  };
  return {
    entered,
    release() {
      ledger.submit = submit;
      open();
    },
  };
}

/** An independent gRPC stack: @grpc/grpc-js with the protos loaded from proto/ccwallet (snake_case fields, int64 as strings). */
export function grpcJs(s: TestServer) {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? files(p) : p.endsWith(".proto") ? [p.slice("proto/".length)] : [];
    });
  const pkg = grpc.loadPackageDefinition(
    protoLoader.loadSync(files("proto/ccwallet"), { includeDirs: ["proto"], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true }),
  ) as any;
  const address = `127.0.0.1:${s.server.grpcPort}`;
  const wallet = new pkg.ccwallet.wallet.v0.WalletService(address, grpc.credentials.createInsecure());
  const admin = new pkg.ccwallet.validator.v0.ValidatorAdminService(address, grpc.credentials.createInsecure());
  const unary = <T>(client: any, method: string, req: unknown, w: Wallet | string) => {
    const md = new grpc.Metadata();
    md.set("authorization", `Bearer ${typeof w === "string" ? w : w.token}`);
    return new Promise<T>((resolve, reject) => client[method](req, md, (err: grpc.ServiceError | null, res: T) => (err ? reject(err) : resolve(res))));
  };
  return {
    wallet: <T = any>(method: string, req: unknown, w: Wallet | string) => unary<T>(wallet, method, req, w),
    admin: <T = any>(method: string, req: unknown, w: Wallet | string) => unary<T>(admin, method, req, w),
    close() {
      wallet.close();
      admin.close();
    },
  };
}
