/**
 * The official Canton wallet SDK (`@canton-network/wallet-sdk`, see README for the version) drives
 * a real node the way its README and examples do: no stand-ins on either side.
 */
import "./node20-shims.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";

const { SDK } = await import("@canton-network/wallet-sdk");
type Sdk = Awaited<ReturnType<typeof SDK.create>>;

let s: TestServer;
let sdk: Sdk;

beforeAll(async () => {
  s = await startTestServer();
  sdk = await SDK.create({ auth: { method: "static", token: await s.adminToken() }, ledgerClientUrl: s.http });
}, 60_000);
afterAll(() => s?.stop());

describe("the Canton wallet SDK against the node", () => {
  it("starts (connected synchronizers) and reads the ledger end", async () => {
    const end = await sdk.ledger.ledgerEnd();
    expect(end).toBe(Number((await s.json("GET", "/v2/state/ledger-end")).body.offset));
  });

  it("allocates a party, creates its user with rights, submits a command and reads the ACS", async () => {
    const party = await sdk.party.internal.allocate({ partyHint: "sdk-alice" });
    expect(party).toMatch(/^sdk-alice::1220[0-9a-f]{64}$/);
    expect(await sdk.party.list()).toContain(party);

    const user = await sdk.user.create({ userId: "sdk-alice", primaryParty: party, userRights: { actAs: [party] } });
    expect(user).toMatchObject({ id: "sdk-alice", primaryParty: party });
    await sdk.user.rights.grant({ userId: "sdk-alice", userRights: { readAs: [party] } });
    const rights = await s.json("GET", "/v2/users/sdk-alice/rights");
    expect(rights.body.rights).toEqual(
      expect.arrayContaining([{ kind: { CanActAs: { value: { party } } } }, { kind: { CanReadAs: { value: { party } } } }]),
    );
    expect((await sdk.user.list()).users?.map((u) => u.id)).toContain("sdk-alice");

    const submitted = await sdk.ledger.internal.submit({
      actAs: [party],
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: party, owner: party, currency: "CC", amount: "10.5", observers: [] } } }],
    });
    expect(submitted.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    expect(submitted.completionOffset).toBe(await sdk.ledger.ledgerEnd());

    const contracts = await sdk.ledger.acs.read({ parties: [party], filterByParty: true, templateIds: [IOU] });
    expect(contracts).toHaveLength(1);
    expect(contracts[0]).toMatchObject({ offset: submitted.completionOffset, signatories: [party] });
    expect(contracts[0].createArgument).toMatchObject({ owner: party, amount: "10.5000000000" });
  });
});
