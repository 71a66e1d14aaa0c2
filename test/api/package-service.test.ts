/** PackageService over JSON and gRPC: the built-in packages under Splice's names and versions. */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackageService, PackageStatus } from "../../gen/com/daml/ledger/api/v2/package_service_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { packageIdOf } from "../../src/ledger/registry.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
const AMULET = packageIdOf("splice-amulet", "0.1.14");
const HOLDING = packageIdOf("splice-api-token-holding-v1", "1.0.0");
const UNKNOWN = "ab".repeat(32);

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
});
afterAll(async () => s?.stop());

describe("JSON /v2/packages", () => {
  it("lists the package ids of the built-in templates and interfaces to any user", async () => {
    const r = await s.json("GET", "/v2/packages", undefined, alice.token);
    expect(r.status).toBe(200);
    expect(r.body.packageIds).toContain(AMULET);
    expect(r.body.packageIds).toContain(HOLDING);
    expect(r.body.packageIds).toContain(packageIdOf("splice-wallet", "0.1.14"));
    expect(r.body.packageIds).not.toContain(UNKNOWN);
    expect(new Set(r.body.packageIds).size).toBe(r.body.packageIds.length);
    // The package ids that events carry are the listed ones.
    const iou = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", {
      commands: { commands: [{ CreateCommand: { templateId: "#ccwallet-demo:Ccwallet.Demo.Iou:Iou", createArguments: { issuer: alice.party, owner: alice.party, currency: "CC", amount: "1", observers: [] } } }], commandId: "pkg-1", actAs: [alice.party] },
    }, alice.token);
    const templatePackage = (iou.body.transaction.events[0].CreatedEvent.templateId as string).split(":")[0];
    expect(r.body.packageIds).toContain(templatePackage);
  });

  it("answers a package's status, UNSPECIFIED for one it does not know", async () => {
    const known = await s.json("GET", `/v2/packages/${AMULET}/status`, undefined, alice.token);
    expect(known.body).toEqual({ packageStatus: "PACKAGE_STATUS_REGISTERED" });
    const unknown = await s.json("GET", `/v2/packages/${UNKNOWN}/status`, undefined, alice.token);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ packageStatus: "PACKAGE_STATUS_UNSPECIFIED" });
  });

  it("refuses a malformed package id and a missing token", async () => {
    const bad = await s.json("GET", "/v2/packages/not-hex/status", undefined, alice.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "INVALID_FIELD", context: { field_name: "package_id" } });
    expect((await s.json("GET", "/v2/packages", undefined, null)).status).toBe(401);
  });
});

describe("gRPC PackageService", () => {
  const client = () => createClient(PackageService, createGrpcTransport({ baseUrl: s.grpc }));
  const headers = () => ({ authorization: `Bearer ${alice.token}` });

  it("ListPackages and GetPackageStatus answer like the JSON routes", async () => {
    const json = await s.json("GET", "/v2/packages", undefined, alice.token);
    expect((await client().listPackages({}, { headers: headers() })).packageIds).toEqual(json.body.packageIds);
    expect((await client().getPackageStatus({ packageId: HOLDING }, { headers: headers() })).packageStatus).toBe(PackageStatus.REGISTERED);
  });

  it("GetPackage: PACKAGE_NOT_FOUND for an unknown id, INVALID_FIELD for a malformed one", async () => {
    const missing = (await client().getPackage({ packageId: UNKNOWN }, { headers: headers() }).catch((e: unknown) => e)) as ConnectError;
    expect(missing.code).toBe(Code.NotFound);
    expect(missing.findDetails(ErrorInfoSchema)[0].reason).toBe("PACKAGE_NOT_FOUND");
    const malformed = (await client().getPackage({ packageId: "x" }, { headers: headers() }).catch((e: unknown) => e)) as ConnectError;
    expect(malformed.code).toBe(Code.InvalidArgument);
    expect(malformed.findDetails(ErrorInfoSchema)[0].reason).toBe("INVALID_FIELD");
  });
});
