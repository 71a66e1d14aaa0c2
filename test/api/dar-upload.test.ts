/**
 * DAR uploads on a real node: `POST /v2/packages` (and `/v2/dars`) with the DAR as the raw body,
 * gRPC PackageManagementService.UploadDarFile and ListKnownPackages; the uploaded packages then in
 * ListPackages, GetPackageStatus and GetPackage (the archive payload), across a restart; Canton's
 * errors for bad DARs, non-admins and commands on templates of a package we cannot run.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackageManagementService } from "../../gen/com/daml/ledger/api/v2/admin/package_management_service_pb.js";
import { PackageService, PackageStatus } from "../../gen/com/daml/ledger/api/v2/package_service_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { packageIdOf } from "../../src/ledger/registry.js";
import { testDar, testPackage, testZip } from "../support/dar-builder.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
const dir = mkdtempSync(join(tmpdir(), "ccwallet-dar-"));

beforeAll(async () => {
  s = await startTestServer({}, dir);
  alice = await s.partyUser("alice");
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function upload(dar: Uint8Array, token: string | null, path = "/v2/packages", contentType = "application/octet-stream") {
  const res = await fetch(`${s.http}${path}?vetAllPackages=true`, {
    method: "POST",
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": contentType },
    body: Buffer.from(dar),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

describe("JSON DAR upload", () => {
  it("stores every package of the DAR, lists them with the built-in ones and serves each archive payload", async () => {
    const main = testPackage();
    const dep = testPackage();
    const r = await upload(testDar([main, dep]), await s.adminToken());
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    const listed = (await s.json("GET", "/v2/packages", undefined, alice.token)).body.packageIds as string[];
    expect(listed).toEqual(expect.arrayContaining([main.packageId, dep.packageId, packageIdOf("splice-amulet", "0.1.14")]));
    expect((await s.json("GET", `/v2/packages/${dep.packageId}/status`, undefined, alice.token)).body).toEqual({ packageStatus: "PACKAGE_STATUS_REGISTERED" });
    const got = await fetch(`${s.http}/v2/packages/${main.packageId}`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/octet-stream");
    expect(got.headers.get("canton-package-hash")).toBe(main.packageId);
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(main.payload))).toBe(true);
  });

  it("is idempotent: the same DAR again (also under /v2/dars) answers 200 and changes nothing", async () => {
    const dar = testDar([testPackage()]);
    const admin = await s.adminToken();
    expect((await upload(dar, admin)).status).toBe(200);
    const before = (await s.json("GET", "/v2/packages")).body.packageIds;
    expect((await upload(dar, admin, "/v2/dars")).status).toBe(200);
    expect((await s.json("GET", "/v2/packages")).body.packageIds).toEqual(before);
  });

  it("refuses bad DARs with Canton's codes (400) and stores nothing", async () => {
    const admin = await s.adminToken();
    const before = (await s.json("GET", "/v2/packages")).body.packageIds;
    const cases: [Uint8Array, string][] = [
      [new TextEncoder().encode("definitely not a zip file"), "INVALID_DAR"],
      [testZip({ "x.dalf": testPackage().archive }), "DAR_PARSE_ERROR"],
      [testDar([testPackage(), testPackage({ hash: "cd".repeat(32) })]), "DAR_PARSE_ERROR"],
    ];
    for (const [dar, code] of cases) {
      const r = await upload(dar, admin);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code, errorCategory: 8 });
    }
    const empty = await upload(new Uint8Array(0), admin);
    expect(empty.body).toMatchObject({ code: "MISSING_FIELD" });
    expect((await upload(testDar([testPackage()]), admin, "/v2/packages", "text/plain")).status).toBe(415);
    expect((await s.json("GET", "/v2/packages")).body.packageIds).toEqual(before);
  });

  it("is for participant admins: 403 for a party user, 401 without a token", async () => {
    expect((await upload(testDar([testPackage()]), alice.token)).status).toBe(403);
    expect((await upload(testDar([testPackage()]), null)).status).toBe(401);
  });

  it("a command on a template of an uploaded package fails with TEMPLATES_OR_INTERFACES_NOT_FOUND, not a 500", async () => {
    const pkg = testPackage();
    await upload(testDar([pkg]), await s.adminToken());
    const r = await s.json("POST", "/v2/commands/submit-and-wait", {
      commands: [{ CreateCommand: { templateId: `${pkg.packageId}:Main:T`, createArguments: { p: alice.party } } }],
      commandId: `uploaded-${Date.now()}`,
      actAs: [alice.party],
    }, alice.token);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: "TEMPLATES_OR_INTERFACES_NOT_FOUND" });
  });
});

describe("gRPC PackageManagementService", () => {
  const transport = () => createGrpcTransport({ baseUrl: s.grpc });
  const as = async (token?: string) => ({ headers: { authorization: `Bearer ${token ?? (await s.adminToken())}` } });

  it("UploadDarFile stores the packages; ListKnownPackages and GetPackage show them", async () => {
    const pkg = testPackage();
    const admin = createClient(PackageManagementService, transport());
    await admin.uploadDarFile({ darFile: testDar([pkg], "grpc-model", "3.2.1") }, await as());
    const details = (await admin.listKnownPackages({}, await as())).packageDetails.find((d) => d.packageId === pkg.packageId);
    expect(details).toMatchObject({ name: "grpc-model", version: "3.2.1", packageSize: BigInt(pkg.payload.length) });
    expect(details?.knownSince?.seconds).toBeGreaterThan(0n);
    const packages = createClient(PackageService, transport());
    const got = await packages.getPackage({ packageId: pkg.packageId }, await as(alice.token));
    expect(got.hash).toBe(pkg.packageId);
    expect(Buffer.from(got.archivePayload).equals(Buffer.from(pkg.payload))).toBe(true);
    expect((await packages.getPackageStatus({ packageId: pkg.packageId }, await as(alice.token))).packageStatus).toBe(PackageStatus.REGISTERED);
  });

  it("refuses a corrupt DAR with DAR_PARSE_ERROR and a non-admin with PERMISSION_DENIED", async () => {
    const client = createClient(PackageManagementService, transport());
    const bad = (await client.uploadDarFile({ darFile: testDar([testPackage({ hash: "ef".repeat(32) })]) }, await as()).catch((e: unknown) => e)) as ConnectError;
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.findDetails(ErrorInfoSchema)[0].reason).toBe("DAR_PARSE_ERROR");
    const denied = (await client.listKnownPackages({}, await as(alice.token)).catch((e: unknown) => e)) as ConnectError;
    expect(denied.code).toBe(Code.PermissionDenied);
  });
});

describe("uploaded packages are durable", () => {
  it("are still listed and served after a restart on the same data", async () => {
    const pkg = testPackage();
    await upload(testDar([pkg]), await s.adminToken());
    await s.stop();
    s = await startTestServer({}, dir);
    expect((await s.json("GET", "/v2/packages")).body.packageIds).toContain(pkg.packageId);
    const got = await fetch(`${s.http}/v2/packages/${pkg.packageId}`, { headers: { authorization: `Bearer ${await s.adminToken()}` } });
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(pkg.payload))).toBe(true);
  });
});
