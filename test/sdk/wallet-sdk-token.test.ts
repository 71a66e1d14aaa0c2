/**
 * The wallet SDK's token and amulet namespaces against a real node: wallets onboarded and funded
 * through the validator's own `/v0` API (as a wallet app would), then read, transferred, merged and
 * tapped through the SDK unchanged. Every step asserts the values the SDK hands back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK } from "@canton-network/wallet-sdk";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

const staticAuth = async (user: string) => ({ method: "static" as const, token: await s.token(user) });

/** Onboards `name` as a wallet user through `/v0/admin/users`; returns its party. */
async function onboard(name: string): Promise<string> {
  const res = await s.json("POST", "/v0/admin/users", { name }, await s.token("administrator"));
  expect(res.status, res.text).toBe(200);
  return res.body.party_id as string;
}

/** An SDK as `user` with the token namespace (registry: this node) and the amulet namespace. */
async function sdkAs(user: string) {
  const auth = await staticAuth(user);
  const base = await SDK.create({ auth, ledgerClientUrl: s.http, logAdapter: "console" });
  return base.extend({
    token: { auth, registries: [s.http] },
    amulet: { auth, validatorUrl: `${s.http}/api/validator`, scanApiUrl: `${s.http}/api/scan`, registryUrl: s.http },
  });
}

describe("wallet SDK: token namespace", () => {
  it("holdings, transaction by id and UTXOs of a wallet that tapped CC", async () => {
    const carol = await onboard("sdk-carol");
    const tapped = await s.json("POST", "/v0/wallet/tap", { amount: "25.0" }, await s.token("sdk-carol"));
    expect(tapped.status, tapped.text).toBe(200);

    const sdk = await sdkAs("sdk-carol");
    const utxos = await sdk.token.utxos.list({ partyId: carol });
    expect(utxos.map((u) => u.contractId)).toEqual([tapped.body.contract_id]);
    expect(utxos[0].interfaceViewValue).toMatchObject({ owner: carol, amount: "25.0000000000", instrumentId: { admin: s.server.network.parties.dso, id: "Amulet" } });

    const holdings = await sdk.token.holdings({ partyId: carol });
    const tapTx = holdings.transactions.find((tx) => tx.events.some((e) => JSON.stringify(e).includes(tapped.body.contract_id)));
    expect(tapTx, JSON.stringify(holdings)).toBeDefined();
    expect(holdings.nextOffset).toBeGreaterThanOrEqual(tapTx!.offset);

    const byId = await sdk.token.transactionsById({ updateId: tapTx!.updateId, partyId: carol });
    expect(byId).toMatchObject({ updateId: tapTx!.updateId, offset: tapTx!.offset, synchronizerId: s.server.api.identity.synchronizerId });
  });

  it("token.transfer: create, pending and accept between two wallets", async () => {
    const [erin, frank] = [await onboard("sdk-erin"), await onboard("sdk-frank")];
    expect((await s.json("POST", "/v0/wallet/tap", { amount: "40.0" }, await s.token("sdk-erin"))).status).toBe(200);
    const registryUrl = new URL(s.http);
    const [erinSdk, frankSdk] = [await sdkAs("sdk-erin"), await sdkAs("sdk-frank")];

    const [transfer, disclosed] = await erinSdk.token.transfer.create({ sender: erin, recipient: frank, amount: "12.5", instrumentId: "Amulet", registryUrl });
    await erinSdk.ledger.internal.submit({ commands: [transfer], actAs: [erin], disclosedContracts: disclosed, commandId: "sdk-transfer-1" });
    const pending = await frankSdk.token.transfer.pending(frank);
    expect(pending.map((p) => p.interfaceViewValue.transfer)).toMatchObject([{ sender: erin, receiver: frank, amount: "12.5000000000" }]);

    const [accept, acceptDisclosed] = await frankSdk.token.transfer.accept({ transferInstructionCid: pending[0].contractId, registryUrl });
    await frankSdk.ledger.internal.submit({ commands: [accept], actAs: [frank], disclosedContracts: acceptDisclosed, commandId: "sdk-accept-1" });
    const received = await frankSdk.token.utxos.list({ partyId: frank });
    expect(received.map((u) => u.interfaceViewValue.amount)).toEqual(["12.5000000000"]);
    expect(await frankSdk.token.transfer.pending(frank)).toEqual([]);
  });

  it("amulet.tapInternal mints CC (its transfer carries the SDK's lock: null); token.utxos.merge joins the holdings", async () => {
    const party = await onboard("sdk-gina");
    const sdk = await sdkAs("sdk-gina");
    const tapped = await sdk.amulet.tapInternal("7.5", { partyId: party });
    expect(tapped.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    expect((await sdk.token.utxos.list({ partyId: party })).map((u) => u.interfaceViewValue.amount)).toEqual(["7.5000000000"]);

    // token.utxos.merge: self-transfers of all holdings, submitted as the SDK returns them.
    await sdk.amulet.tapInternal("2.5", { partyId: party });
    const [merges, disclosed] = await sdk.token.utxos.merge({ partyId: party });
    expect(merges).toHaveLength(1);
    for (const [i, command] of merges.entries()) {
      await sdk.ledger.internal.submit({ commands: [command], actAs: [party], disclosedContracts: disclosed, commandId: `sdk-merge-${i}` });
    }
    expect((await sdk.token.utxos.list({ partyId: party })).map((u) => u.interfaceViewValue.amount)).toEqual(["10.0000000000"]);
  });

  it("amulet.preapproval.fetchStatus reads a wallet's transfer preapproval", async () => {
    const operator = await s.token("administrator");
    expect((await s.json("POST", "/v0/wallet/tap", { amount: "1000" }, operator)).status).toBe(200);
    const party = await onboard("sdk-hank");
    const created = await s.json("POST", "/v0/wallet/transfer-preapproval", undefined, await s.token("sdk-hank"));
    expect(created.status, created.text).toBe(200);
    const sdk = await sdkAs("sdk-hank");
    const status = await sdk.amulet.preapproval.fetchStatus(party);
    expect(status).toMatchObject({ contractId: created.body.transfer_preapproval_contract_id, dso: s.server.network.parties.dso });
    expect(status!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});
