/**
 * The `/v0` services on the gRPC port over real HTTP/2, called by the buf-generated Connect client
 * and by @grpc/grpc-js with the protos loaded from proto/ccwallet: same use cases and auth as the
 * JSON routes, wallet errors as gRPC status codes.
 */
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenStandardRegistryService } from "../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import { ValidatorAdminService } from "../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import { ValidatorService } from "../../gen/ccwallet/validator/v0/validator_service_pb.js";
import { WalletService } from "../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let namespace: string;
let wallet: Client<typeof WalletService>;
let validator: Client<typeof ValidatorService>;
let admin: Client<typeof ValidatorAdminService>;
let registry: Client<typeof TokenStandardRegistryService>;
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function codeOf(p: Promise<unknown>): Promise<{ code: Code; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ConnectError) return { code: e.code, message: e.rawMessage };
    throw e;
  }
  throw new Error("expected a ConnectError");
}

beforeAll(async () => {
  s = await startTestServer();
  const transport = createGrpcTransport({ baseUrl: s.grpc });
  wallet = createClient(WalletService, transport);
  validator = createClient(ValidatorService, transport);
  admin = createClient(ValidatorAdminService, transport);
  registry = createClient(TokenStandardRegistryService, transport);
  namespace = (await validator.getValidatorUserInfo({})).partyId.split("::")[1];
});
afterAll(() => s?.stop());

describe("Connect client", () => {
  it("onboards, lists and reads the status like the JSON routes", async () => {
    const info = await validator.getValidatorUserInfo({});
    expect(info).toMatchObject({ partyId: `administrator::${namespace}`, userName: "administrator", featured: true });
    const operator = bearer(await s.token("administrator"));
    const { partyId } = await admin.onboardUser({ name: "grace" }, operator);
    expect(partyId).toBe(`grace::${namespace}`);
    expect((await admin.listUsers({}, operator)).usernames).toEqual(expect.arrayContaining(["administrator", "grace"]));
    const grace = bearer(await s.token("grace"));
    expect(await wallet.userStatus({}, grace)).toMatchObject({ partyId, userOnboarded: true, userWalletInstalled: true, hasFeaturedAppRight: false });
    expect(await validator.featureSupport({}, grace)).toMatchObject({ tokenStandard: true, transferPreapprovalDescription: true });
    const self = await validator.register({}, bearer(await s.token("hana")));
    expect(self.partyId).toBe(`hana::${namespace}`);
    // the JSON side sees the same state
    expect((await s.json("GET", "/v0/admin/users", undefined, await s.token("administrator"))).body.usernames).toEqual(expect.arrayContaining(["grace", "hana"]));
    await admin.offboardUser({ username: "hana" }, operator);
    expect((await wallet.userStatus({}, bearer(await s.token("hana")))).userOnboarded).toBe(false);
  });

  it("answers refusals with gRPC codes: UNAUTHENTICATED, PERMISSION_DENIED, INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, UNIMPLEMENTED", async () => {
    const operator = bearer(await s.token("administrator"));
    expect(await codeOf(admin.listUsers({}))).toEqual({ code: Code.Unauthenticated, message: "missing or invalid bearer token: no Authorization header" });
    expect((await codeOf(admin.listUsers({}, bearer(await s.token("grace"))))).code).toBe(Code.PermissionDenied);
    expect((await codeOf(wallet.getBalance({}, bearer(await s.token("nobody"))))).code).toBe(Code.PermissionDenied);
    expect((await codeOf(admin.onboardUser({ name: "bad name!" }, operator))).code).toBe(Code.InvalidArgument);
    expect((await codeOf(admin.offboardUser({ username: "nobody" }, operator))).code).toBe(Code.NotFound);
    expect((await codeOf(admin.onboardUser({ name: "grace", partyId: `other::${namespace}` }, operator))).code).toBe(Code.AlreadyExists);
    const stub = await codeOf(wallet.getBalance({}, bearer(await s.token("grace"))));
    expect(stub).toEqual({ code: Code.Unimplemented, message: "GET /v0/wallet/balance is not implemented yet" });
    // the registry is public
    expect((await codeOf(registry.getTransferFactory({ choiceArguments: {} }))).code).toBe(Code.Unimplemented);
  });
});

function protoFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? protoFiles(p) : p.endsWith(".proto") ? [p.slice("proto/".length)] : [];
  });
}

describe("@grpc/grpc-js with the protos in proto/ccwallet", () => {
  const pkg = grpc.loadPackageDefinition(
    protoLoader.loadSync(protoFiles("proto/ccwallet"), { includeDirs: ["proto"], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true }),
  ) as any;
  const v0 = pkg.ccwallet.validator.v0;
  const unary = <T>(client: any, method: string, req: unknown, md = new grpc.Metadata()) =>
    new Promise<T>((resolve, reject) => client[method](req, md, (err: grpc.ServiceError | null, res: T) => (err ? reject(err) : resolve(res))));

  it("calls the validator services with snake_case fields and sees status codes", async () => {
    const address = `127.0.0.1:${s.server.grpcPort}`;
    const validatorClient = new v0.ValidatorService(address, grpc.credentials.createInsecure());
    const adminClient = new v0.ValidatorAdminService(address, grpc.credentials.createInsecure());
    try {
      const info = await unary<any>(validatorClient, "GetValidatorUserInfo", {});
      expect(info).toEqual({ party_id: `administrator::${namespace}`, user_name: "administrator", featured: true });
      const md = new grpc.Metadata();
      md.set("authorization", `Bearer ${await s.token("administrator")}`);
      const onboarded = await unary<any>(adminClient, "OnboardUser", { name: "ines", create_party_if_missing: false }, md);
      expect(onboarded).toEqual({ party_id: `ines::${namespace}` });
      const err = await unary(adminClient, "ListUsers", {}).catch((e: grpc.ServiceError) => e);
      expect((err as grpc.ServiceError).code).toBe(grpc.status.UNAUTHENTICATED);
    } finally {
      validatorClient.close();
      adminClient.close();
    }
  });
});
