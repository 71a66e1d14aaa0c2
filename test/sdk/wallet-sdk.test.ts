/**
 * The official Canton wallet SDK (`@canton-network/wallet-sdk`) against a real node on ephemeral
 * ports, used as its README does: no stand-ins on either side.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK } from "@canton-network/wallet-sdk";
import { startTestServer, type TestServer } from "../support/test-server.js";

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
