/**
 * The wallet SDK's ledger namespace against a real node: `ledger.dar.upload` (its check, then
 * `POST /v2/packages` with the DAR as octet-stream) and `ledger.acsReader.paginated.read`
 * (`/v2/state/active-contracts-page`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK } from "@canton-network/wallet-sdk";
import { testDar, testPackage } from "../support/dar-builder.js";
import { createIou, IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.stop());

async function sdkAs(token: string) {
  return SDK.create({ auth: { method: "static", token }, ledgerClientUrl: s.http, logAdapter: "console" });
}

describe("wallet SDK: ledger.dar", () => {
  it("dar.upload uploads a DAR the node did not have; dar.check then finds it; a second upload is skipped", async () => {
    const sdk = await sdkAs(await s.adminToken());
    const pkg = testPackage();
    expect(await sdk.ledger.dar.check(pkg.packageId)).toBe(false);
    await sdk.ledger.dar.upload(testDar([pkg]), pkg.packageId);
    expect(await sdk.ledger.dar.check(pkg.packageId)).toBe(true);
    const status = await s.json("GET", `/v2/packages/${pkg.packageId}/status`);
    expect(status.body).toEqual({ packageStatus: "PACKAGE_STATUS_REGISTERED" });
    await sdk.ledger.dar.upload(testDar([pkg]), pkg.packageId);
  });
});

describe("wallet SDK: ledger.acsReader.paginated", () => {
  it("paginated.read: the SDK's provider sends the GET without its body, so the node refuses it as Canton would (400 MISSING_FIELD)", async () => {
    const alice = await s.partyUser("sdk-page");
    for (const amount of ["1", "2"]) {
      const r = await s.json("POST", "/v2/commands/submit-and-wait", createIou(alice.party, amount).commands, alice.token);
      expect(r.status, r.text).toBe(200);
    }
    const sdk = await sdkAs(alice.token);
    // core-provider-ledger 1.8's GET passes no body (`getWithRetry(resource, undefined, params)`):
    // the eventFormat the reader builds never reaches the node, and Canton requires it.
    // (`paginated.read` is BaseReader's, which this SDK's declarations do not show on PaginatedReader.)
    const paginated = sdk.ledger.acsReader.paginated as unknown as { read(options: object): Promise<unknown> };
    const failure = await paginated.read({ parties: [alice.party], filterByParty: true, templateIds: [IOU] }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "MISSING_FIELD" });
    // The same request with its body reaches the endpoint and pages as the reader expects.
    const page = await s.json("POST", "/v2/state/active-contracts-page", {
      eventFormat: { filtersByParty: { [alice.party]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: IOU, includeCreatedEventBlob: true } } } }] } } },
      maxPageSize: 1,
    }, alice.token);
    expect(page.status, page.text).toBe(200);
    expect(page.body.activeContracts).toHaveLength(1);
    expect(page.body.nextPageToken).toEqual(expect.any(String));
  });
});
