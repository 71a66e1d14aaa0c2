/**
 * `GET /v0/wallet/balance` and `/v0/wallet/amulets` served from the in-memory holdings index:
 * a call made right after a tap returned sees it (sequential and concurrent taps), the amulet
 * list is in creation order and equals what `/v2/state/active-contracts` shows, and a transfer
 * out of the wallet is reflected at once. Every 200 body is checked against the Splice OpenAPI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../src/ledger/numeric.js";
import { ResponseLog } from "../support/openapi-validator.js";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { acs, caller, fund, ofTemplate, onboard, type Wallet } from "./v0-coin-support.js";

const log = new ResponseLog();
let s: TestServer;
let call: ReturnType<typeof caller>;
let alice: Wallet;
let bob: Wallet;

beforeAll(async () => {
  s = await startTestServer();
  call = caller(s, log);
  alice = await onboard(s, "alice");
  bob = await onboard(s, "bob");
});
afterAll(() => s?.stop());

const unlocked = async (w: Wallet) => {
  const r = await call("GET", "/v0/wallet/balance", w);
  expect(r.status, r.text).toBe(200);
  return r.body.effective_unlocked_qty as string;
};

describe("balance and amulets from the holdings index", () => {
  it("a balance read right after a tap returned includes it", async () => {
    let total = Numeric.zero;
    expect(await unlocked(alice)).toBe("0.0000000000");
    for (let i = 1; i <= 8; i++) {
      const tap = await call("POST", "/v0/wallet/tap", alice, { amount: `${i}.5` });
      expect(tap.status, tap.text).toBe(200);
      total = total.add(Numeric.parse(`${i}.5`));
      expect(await unlocked(alice)).toBe(total.toString());
    }
  });

  it("concurrent taps, then one read: all of them", async () => {
    const taps = await Promise.all(Array.from({ length: 10 }, () => call("POST", "/v0/wallet/tap", bob, { amount: "2" })));
    expect(taps.map((t) => t.status)).toEqual(Array(10).fill(200));
    expect(await unlocked(bob)).toBe("20.0000000000");
  });

  it("lists amulets in creation order, as /v2 shows them; a payment out is reflected at once", async () => {
    const onLedger = ofTemplate(await acs(s, alice), "Splice.Amulet:Amulet").filter((c) => c.createArgument.owner === alice.party);
    const listed = await call("GET", "/v0/wallet/amulets", alice);
    expect(listed.status).toBe(200);
    expect((listed.body.amulets as any[]).map((a) => a.contract.contract.contract_id)).toEqual(onLedger.map((c) => c.contractId));
    expect((listed.body.amulets as any[]).map((a) => a.contract.contract.payload)).toEqual(onLedger.map((c) => c.createArgument));
    expect(listed.body.locked_amulets).toEqual([]);

    await fund(s, alice.party, "100"); // in process, then straight to HTTP
    expect(await unlocked(alice)).toBe("140.0000000000");
    await fund(s, s.server.network.parties.validator, "1000"); // the operator pays bob's preapproval
    expect((await call("POST", "/v0/wallet/transfer-preapproval", bob)).status).toBe(200);
    const send = await call("POST", "/v0/wallet/transfer-preapproval/send", alice, { receiver_party_id: bob.party, amount: "44", deduplication_id: "fresh-1" });
    expect(send.status, send.text).toBe(200);
    expect(await unlocked(alice)).toBe("96.0000000000");
    expect(await unlocked(bob)).toBe("64.0000000000");
  });
});

describeOpenApiConformance(() => log, { title: "every 200 body above conforms", errors: false });
