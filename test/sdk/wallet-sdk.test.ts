/**
 * The official Canton wallet SDK (`@canton-network/wallet-sdk`) against a real node on ephemeral
 * ports, used as its README does: no stand-ins on either side.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK } from "@canton-network/wallet-sdk";
import { packageIdOf } from "../../src/ledger/registry.js";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.stop());

/** An SDK connected as `user`, with a token the node issued (the SDK's `static` auth). */
async function sdkAs(user: string) {
  return SDK.create({ auth: { method: "static", token: await s.token(user) }, ledgerClientUrl: s.http, logAdapter: "console" });
}

describe("wallet SDK: connecting", () => {
  it("SDK.create resolves the node's synchronizer and lists the admin's parties", async () => {
    const sdk = await sdkAs("participant_admin");
    const hint = `sdk-${process.pid}`;
    const party = await sdk.party.internal.allocate({ partyHint: hint });
    expect(party).toMatch(new RegExp(`^${hint}::1220[0-9a-f]{64}$`));
    expect(await sdk.party.list()).toContain(party);
  });
});

describe("wallet SDK: users, rights, submit and the active contracts", () => {
  it("creates a user with rights, submits as it and reads the contract back", async () => {
    const admin = await sdkAs("participant_admin");
    const party = await admin.party.internal.allocate({ partyHint: `carol-${process.pid}` });
    const userId = `carol-${process.pid}`;
    const created = await admin.user.create({ userId, primaryParty: party, userRights: { actAs: [party] } });
    expect(created).toMatchObject({ id: userId, primaryParty: party });
    await admin.user.rights.grant({ userId, userRights: { readAs: [party] } });
    expect((await admin.user.list()).users?.map((u) => u.id)).toContain(userId);

    const carol = await sdkAs(userId);
    const kinds = (await carol.user.rights.list()).rights?.map((r) => Object.keys(r.kind ?? {})[0]).sort();
    expect(kinds).toEqual(["CanActAs", "CanReadAs"]);
    const submitted = await carol.ledger.internal.submit({
      actAs: [party],
      commandId: `sdk-iou-${process.pid}`,
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: party, owner: party, currency: "CC", amount: "3.5", observers: [] } } }],
    });
    expect(submitted.updateId).toMatch(/^[0-9a-f]+$/);
    expect(submitted.completionOffset).toBeGreaterThan(0);

    const contracts = await carol.ledger.acs.read({ parties: [party], filterByParty: true, templateIds: [IOU] });
    expect(contracts).toHaveLength(1);
    expect(contracts[0]).toMatchObject({ signatories: [party], createArgument: { amount: "3.5000000000", currency: "CC" } });
  });
});

describe("wallet SDK: packages", () => {
  it("dar.check finds Splice's amulet package and not an unknown one", async () => {
    const sdk = await sdkAs("participant_admin");
    expect(await sdk.ledger.dar.check(packageIdOf("splice-amulet", "0.1.14"))).toBe(true);
    expect(await sdk.ledger.dar.check("ab".repeat(32))).toBe(false);
  });
});

describe("wallet SDK: amulet reads", () => {
  it("amulet.featuredApp.rights finds the operator's right and none for a fresh party; amulet.traffic.status", async () => {
    const alice = await s.partyUser("alice");
    const auth = { method: "static" as const, token: alice.token };
    const base = await SDK.create({ auth, ledgerClientUrl: s.http, logAdapter: "console" });
    const sdk = await base.extend({
      amulet: { auth, registryUrl: s.http, scanApiUrl: `${s.http}/api/scan`, validatorUrl: `${s.http}/api/validator` },
    });
    const operator = (await s.json("GET", "/v0/validator-user", undefined, null)).body.party_id as string;
    const right = await sdk.amulet.featuredApp.rights({ partyId: operator });
    expect(right).toMatchObject({ template_id: expect.stringMatching(/:Splice\.Amulet:FeaturedAppRight$/), payload: { provider: operator } });
    // The SDK polls while the answer is empty: one attempt is enough here.
    expect(await sdk.amulet.featuredApp.rights({ partyId: alice.party, maxRetries: 1, delayMs: 1 })).toBeUndefined();

    const participant = (await s.json("GET", "/v2/parties/participant-id")).body.participantId as string;
    const status = await sdk.amulet.traffic.status({ memberId: participant });
    expect(status.traffic_status).toEqual({ actual: { total_consumed: 0, total_limit: 0 }, target: { total_purchased: 0 } });
  });
});
