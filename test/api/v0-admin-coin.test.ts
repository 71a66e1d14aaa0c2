/**
 * The validator admin's Canton Coin endpoints over real HTTP and gRPC: the operator's transfer
 * preapprovals (list, lookup by receiver, cancel as provider — only those it provides) and
 * external-party balances. Admin auth, refusals that change nothing, effects on `/v2`, every 200
 * body against the Splice OpenAPI.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { status, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaticClock } from "../../src/ledger/clock.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { createTransferPreapproval } from "../../src/wallet/index.js";
import { TICK } from "../support/cc-fixture.js";
import { ResponseLog } from "../support/openapi-validator.js";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { acs, amuletTotal, bearer, caller, ccDeps, DAY, fund, grpcClients, grpcJs, ofTemplate, onboard, operatorWallet, type GrpcClients, type Wallet } from "./v0-coin-support.js";

const PREAPPROVAL = "Splice.AmuletRules:TransferPreapproval";

let s: TestServer;
let grpc: GrpcClients;
let operator: Wallet;
let admin: string;
let alice: Wallet;
let bob: Wallet;
let zed: Wallet;
let provider: string;
const log = new ResponseLog();
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_TIME: "static" });
  call = caller(s, log);
  grpc = grpcClients(s);
  operator = await operatorWallet(s);
  admin = await s.adminToken();
  [alice, bob, zed] = [await onboard(s, "alice"), await onboard(s, "bob"), await onboard(s, "zed")];
  await fund(s, operator.party, "1000");
  await fund(s, alice.party, "100");
  for (const w of [alice, bob]) expect((await call("POST", "/v0/wallet/transfer-preapproval", w)).status).toBe(200);
  // zed's preapproval is provided (and paid) by another wallet, not by the operator
  const paula = await onboard(s, "paula");
  await fund(s, paula.party, "100");
  await createTransferPreapproval({ ...ccDeps(s), validator: paula.party }, zed.party);
  provider = paula.party;
});
afterAll(() => s?.stop());

const preapprovalOf = async (w: Wallet) => ofTemplate(await acs(s, w), PREAPPROVAL).filter((c) => c.createArgument.receiver === w.party);

describe("GET /v0/admin/transfer-preapprovals", () => {
  it("lists the preapprovals the operator provides, with their synchronizer", async () => {
    const r = await call("GET", "/v0/admin/transfer-preapprovals", operator);
    expect(r.status).toBe(200);
    const receivers = (r.body.contracts as any[]).map((c) => c.contract.payload.receiver).sort();
    expect(receivers).toEqual([alice.party, bob.party].sort());
    expect((r.body.contracts as any[]).every((c) => c.contract.payload.provider === operator.party && typeof c.domain_id === "string")).toBe(true);
    expect((await preapprovalOf(zed)).map((c) => c.createArgument.provider)).toEqual([provider]);
    expect((await call("GET", "/api/validator/v0/admin/transfer-preapprovals", admin)).status).toBe(200);
  });

  it("is for the operator and participant admins only", async () => {
    expect((await call("GET", "/v0/admin/transfer-preapprovals", alice)).status).toBe(403);
    expect((await call("GET", "/v0/admin/transfer-preapprovals", null)).status).toBe(401);
  });
});

describe("GET and DELETE /v0/admin/transfer-preapprovals/by-party/{receiver-party}", () => {
  const byParty = (p: string) => `/v0/admin/transfer-preapprovals/by-party/${encodeURIComponent(p)}`;

  it("looks up the receiver's preapproval", async () => {
    const [pre] = await preapprovalOf(alice);
    const r = await call("GET", byParty(alice.party), operator);
    expect(r.status).toBe(200);
    expect(r.body.transfer_preapproval.contract).toMatchObject({ contract_id: pre.contractId, payload: { receiver: alice.party, provider: operator.party } });
    expect((await call("GET", `/api/validator${byParty(alice.party)}`, admin)).body.transfer_preapproval.contract.contract_id).toBe(pre.contractId);
  });

  it("refuses malformed parties (400), unknown ones and preapprovals another provider gives (404)", async () => {
    expect(await call("GET", byParty("alice"), operator)).toMatchObject({ status: 400, body: { error: 'receiver-party: "alice" is not a party id (<hint>::<fingerprint>)' } });
    expect((await call("GET", byParty(`ghost::${alice.party.split("::")[1]}`), operator)).status).toBe(404);
    const other = await call("GET", byParty(zed.party), operator);
    expect(other.status).toBe(404);
    expect(other.body.error).toMatch(/No TransferPreapproval with provider .* found for receiver/);
    expect((await call("DELETE", byParty(zed.party), operator)).status).toBe(404);
    expect(await preapprovalOf(zed)).toHaveLength(1);
    expect((await call("DELETE", byParty(bob.party), alice)).status).toBe(403);
    expect(await preapprovalOf(bob)).toHaveLength(1);
  });

  it("DELETE cancels it as provider: gone from /v2, then 404", async () => {
    const r = await call("DELETE", byParty(bob.party), operator);
    expect(r.status, r.text).toBe(200);
    expect(await preapprovalOf(bob)).toEqual([]);
    expect((await call("GET", byParty(bob.party), operator)).status).toBe(404);
    expect((await call("DELETE", `/api/validator${byParty(bob.party)}`, operator)).status).toBe(404);
    // the wallet user may set up a new one
    expect((await call("POST", "/v0/wallet/transfer-preapproval", bob)).status).toBe(200);
  });

  it("on gRPC: list, lookup and cancel with the Connect client", async () => {
    const listed = await grpc.admin.listTransferPreapprovals({}, bearer(operator));
    expect(listed.contracts.map((c) => c.contract?.payload?.receiver).sort()).toEqual([alice.party, bob.party].sort());
    const found = await grpc.admin.lookupTransferPreapprovalByParty({ receiverParty: bob.party }, bearer(operator));
    expect(found.transferPreapproval?.contract?.payload?.receiver).toBe(bob.party);
    await grpc.admin.cancelTransferPreapprovalByParty({ receiverParty: bob.party }, bearer(operator));
    const err = await grpc.admin.lookupTransferPreapprovalByParty({ receiverParty: bob.party }, bearer(operator)).catch((e: unknown) => e);
    expect((err as ConnectError).code).toBe(Code.NotFound);
  });
});

describe("GET /v0/admin/external-party/balance", () => {
  const balance = (party: string, token: Wallet | string = operator) => call("GET", `/v0/admin/external-party/balance?party_id=${encodeURIComponent(party)}`, token);

  it("sums the party's holdings as Splice's HoldingsSummary (initial amounts, fees at the earliest open round)", async () => {
    // lock part of alice's CC in a token-standard offer
    const offer = { receiver_party_id: bob.party, amount: "10", description: "d", expires_at: Number(s.server.api.clock.now() + DAY), tracking_id: "bal" };
    const locking = await call("POST", "/v0/wallet/token-standard/transfers", alice, offer);
    expect(locking.status, locking.text).toBe(200);
    const locked = ofTemplate(await acs(s, alice), "Splice.Amulet:LockedAmulet")[0].createArgument.amulet.amount.initialAmount;
    const unlocked = await amuletTotal(s, alice);
    const r = await balance(alice.party);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      party_id: alice.party,
      total_unlocked_coin: unlocked,
      total_locked_coin: locked,
      total_coin_holdings: "100.0000000000",
      accumulated_holding_fees_unlocked: "0.0000000000",
      accumulated_holding_fees_locked: "0.0000000000",
      accumulated_holding_fees_total: "0.0000000000",
      total_available_coin: unlocked,
      computed_as_of_round: expect.any(Number),
    });
  });

  it("counts holding fees once rounds pass", async () => {
    const before = (await balance(alice.party)).body;
    const clock = s.server.api.clock as StaticClock;
    for (let i = 0; i < 4; i++) {
      clock.set(clock.now(), clock.now() + TICK);
      await s.server.network.automation.settled();
    }
    const after = (await balance(alice.party)).body;
    expect(after.computed_as_of_round).toBeGreaterThan(before.computed_as_of_round);
    const n = (k: string) => Numeric.parse(after[k]);
    expect(n("accumulated_holding_fees_unlocked").isPositive()).toBe(true);
    expect(n("accumulated_holding_fees_locked").isPositive()).toBe(true);
    expect(n("accumulated_holding_fees_total").toString()).toBe(n("accumulated_holding_fees_unlocked").add(n("accumulated_holding_fees_locked")).toString());
    expect(n("total_available_coin").toString()).toBe(n("total_unlocked_coin").sub(n("accumulated_holding_fees_unlocked")).toString());
    expect(after.total_coin_holdings).toBe("100.0000000000");
  });

  it("refuses missing, malformed and unknown parties, and non-admins", async () => {
    expect(await call("GET", "/v0/admin/external-party/balance", operator)).toMatchObject({ status: 400, body: { error: "Invalid request: party_id: missing required field" } });
    expect((await balance("alice")).status).toBe(400);
    expect(await balance(`ghost::${alice.party.split("::")[1]}`)).toMatchObject({ status: 404, body: { error: expect.stringMatching(/^No wallet for external party ghost::/) } });
    expect((await balance(alice.party, alice)).status).toBe(403);
  });

  it("on gRPC", async () => {
    const b = await grpc.admin.getExternalPartyBalance({ partyId: alice.party }, bearer(operator));
    expect(b.totalCoinHoldings).toBe("100.0000000000");
    expect(typeof b.computedAsOfRound).toBe("bigint");
  });
});

describe("@grpc/grpc-js with the protos in proto/ccwallet", () => {
  it("lists preapprovals and reads a balance with snake_case fields; non-admins are PERMISSION_DENIED", async () => {
    const js = grpcJs(s);
    try {
      const listed = await js.admin("ListTransferPreapprovals", {}, operator);
      expect(listed.contracts.map((c: any) => c.contract.payload.fields.receiver.stringValue)).toEqual([alice.party]);
      const b = await js.admin("GetExternalPartyBalance", { party_id: alice.party }, operator);
      expect(b).toMatchObject({ party_id: alice.party, total_coin_holdings: "100.0000000000", computed_as_of_round: expect.any(String) });
      const denied = await js.admin("GetExternalPartyBalance", { party_id: alice.party }, alice).catch((e: ServiceError) => e);
      expect((denied as ServiceError).code).toBe(status.PERMISSION_DENIED);
    } finally {
      js.close();
    }
  });
});

describeOpenApiConformance(() => log, {
  title: "every 200 body conforms, every error body is {error}",
  operations: [
    "validator-internal.yaml#cancelTransferPreapprovalByParty",
    "validator-internal.yaml#getExternalPartyBalance",
    "validator-internal.yaml#listTransferPreapprovals",
    "validator-internal.yaml#lookupTransferPreapprovalByParty",
    "wallet-internal.yaml#createTokenStandardTransfer",
    "wallet-internal.yaml#createTransferPreapproval",
  ],
});
