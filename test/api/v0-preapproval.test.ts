/**
 * `POST /v0/wallet/transfer-preapproval` and `POST /v0/wallet/transfer-preapproval/send` over real
 * HTTP and gRPC: the user's proposal accepted by the operator (who pays the fee), 409 with the
 * same body, 429 while in flight, one-step sends deduplicated for 24 h, refusals that change
 * nothing — each checked on `/v2`, every 200 body against the Splice OpenAPI.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { status, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateTransferPreapprovalResponseSchema } from "../../gen/ccwallet/wallet/v0/wallet_internal_pb.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { latestOpenRound, readNetwork } from "../../src/network/network-state.js";
import { AmuletRules, AmuletRules_DevNet_Tap, AmuletRules_Mint } from "../../src/templates/splice/amulet-rules.js";
import { TransferPreapprovalProposal } from "../../src/templates/splice/wallet/transfer-preapproval-proposal.js";
import { ResponseLog } from "../support/openapi-validator.js";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { acs, amuletTotal, bearer, caller, ccDeps, fund, grpcClients, grpcJs, holdSubmissions, ofTemplate, onboard, operatorWallet, type GrpcClients, type Wallet } from "./v0-coin-support.js";

const PREAPPROVAL = "Splice.AmuletRules:TransferPreapproval";
const PROPOSAL = "Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal";
/** 90 days at 1 USD per 365 days, at 0.005 USD/CC. */
const FEE = "49.3150680000";

let s: TestServer;
let grpc: GrpcClients;
let operator: Wallet;
let alice: Wallet;
let bob: Wallet;
const log = new ResponseLog();
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_TIME: "static" });
  call = caller(s, log);
  grpc = grpcClients(s);
  operator = await operatorWallet(s);
  alice = await onboard(s, "alice");
  bob = await onboard(s, "bob");
});
afterAll(() => s?.stop());

const preapprovalsOf = async (w: Wallet) => ofTemplate(await acs(s, w), PREAPPROVAL).filter((c) => c.createArgument.receiver === w.party);

describe("POST /v0/wallet/transfer-preapproval", () => {
  it("refuses with 503 while the operator cannot pay the fee, and changes nothing", async () => {
    const r = await call("POST", "/v0/wallet/transfer-preapproval", alice);
    expect(r.status).toBe(503);
    expect(r.body.error).toMatch(new RegExp(`validator operator cannot pay the transfer preapproval fee of ${FEE} CC .*insufficient funds`));
    const mine = await acs(s, alice);
    expect(ofTemplate(mine, PREAPPROVAL)).toEqual([]);
    expect(ofTemplate(mine, PROPOSAL)).toEqual([]);
  });

  it("creates the preapproval: the user's proposal, accepted by the operator as provider, fee paid by the operator", async () => {
    await fund(s, operator.party, "1000");
    const now = s.server.api.clock.now();
    const r = await call("POST", "/v0/wallet/transfer-preapproval", alice);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body)).toEqual(["transfer_preapproval_contract_id"]);
    const [pre, ...more] = await preapprovalsOf(alice);
    expect(more).toEqual([]);
    expect(pre.contractId).toBe(r.body.transfer_preapproval_contract_id);
    expect(pre.createArgument).toMatchObject({ receiver: alice.party, provider: operator.party, dso: s.server.network.parties.dso });
    expect(BigInt(Date.parse(pre.createArgument.expiresAt)) * 1000n).toBe(now + 90n * 86_400_000_000n);
    expect(ofTemplate(await acs(s, alice), PROPOSAL)).toEqual([]);
    expect(await amuletTotal(s, operator)).toBe(Numeric.parse("1000").sub(Numeric.parse(FEE)).toString());
  });

  it("answers 409 with the same body when the preapproval exists (bare and under /api/validator), paying nothing", async () => {
    const first = (await preapprovalsOf(alice))[0].contractId;
    const before = await amuletTotal(s, operator);
    for (const prefix of ["", "/api/validator"]) {
      const r = await call("POST", `${prefix}/v0/wallet/transfer-preapproval`, alice);
      expect(r).toMatchObject({ status: 409, body: { transfer_preapproval_contract_id: first } });
    }
    expect((await preapprovalsOf(alice)).map((p) => p.contractId)).toEqual([first]);
    expect(await amuletTotal(s, operator)).toBe(before);
  });

  it("answers 429 to a request for the same party while one is in flight; exactly one preapproval results", async () => {
    const hold = holdSubmissions(s);
    const first = call("POST", "/v0/wallet/transfer-preapproval", bob);
    await hold.entered;
    const second = await call("POST", "/v0/wallet/transfer-preapproval", bob);
    hold.release();
    expect(second).toMatchObject({ status: 429, body: { error: `a transfer preapproval for ${bob.party} is being created; retry later` } });
    const created = await first;
    expect(created.status).toBe(200);
    expect((await preapprovalsOf(bob)).map((p) => p.contractId)).toEqual([created.body.transfer_preapproval_contract_id]);
    expect((await call("POST", "/v0/wallet/transfer-preapproval", bob)).status).toBe(409);
  });

  it("finishes a proposal an interrupted request left behind instead of signing a second one", async () => {
    const carol = await onboard(s, "carol");
    const deps = ccDeps(s);
    const left = await deps.client.create([carol.party], TransferPreapprovalProposal, { receiver: carol.party, provider: operator.party, expectedDso: deps.dso });
    const r = await call("POST", "/v0/wallet/transfer-preapproval", carol);
    expect(r.status).toBe(200);
    const mine = await acs(s, carol);
    expect(ofTemplate(mine, PROPOSAL)).toEqual([]);
    expect(ofTemplate(mine, PREAPPROVAL).map((c) => c.contractId)).toEqual([r.body.transfer_preapproval_contract_id]);
    expect(await deps.client.contract(TransferPreapprovalProposal, left)).toBeUndefined();
  });

  it("on gRPC: ALREADY_EXISTS carries the existing preapproval as error detail", async () => {
    const existing = (await preapprovalsOf(alice))[0].contractId;
    const err = await grpc.wallet.createTransferPreapproval({}, bearer(alice)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.AlreadyExists);
    expect((err as ConnectError).findDetails(CreateTransferPreapprovalResponseSchema).map((d) => d.transferPreapprovalContractId)).toEqual([existing]);
    const dave = await onboard(s, "dave");
    const created = await grpc.wallet.createTransferPreapproval({}, bearer(dave));
    expect((await preapprovalsOf(dave)).map((p) => p.contractId)).toEqual([created.transferPreapprovalContractId]);
  });

  it("requires a wallet user", async () => {
    expect((await call("POST", "/v0/wallet/transfer-preapproval", null)).status).toBe(401);
    expect((await call("POST", "/v0/wallet/transfer-preapproval", await s.token("stranger"))).status).toBe(403);
  });
});

describe("POST /v0/wallet/transfer-preapproval/send", () => {
  const send = (w: Wallet, body: unknown, prefix = "") => call("POST", `${prefix}/v0/wallet/transfer-preapproval/send`, w, body);

  it("moves CC to a preapproved receiver in one step", async () => {
    await fund(s, alice.party, "100");
    const r = await send(alice, { receiver_party_id: bob.party, amount: "10", deduplication_id: "d-1", description: "lunch" });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({});
    expect(await amuletTotal(s, bob)).toBe("10.0000000000");
    expect(await amuletTotal(s, alice)).toBe("90.0000000000");
  });

  it("deduplicates by deduplication_id for 24 hours: a retry is 409 and pays nothing; any string is a valid id", async () => {
    const retry = await send(alice, { receiver_party_id: bob.party, amount: "10", deduplication_id: "d-1" }, "/api/validator");
    expect(retry.status).toBe(409);
    expect(retry.body.error).toMatch(/^A command with the given command id has already been successfully processed/);
    const odd = { receiver_party_id: bob.party, amount: "1.5", deduplication_id: "é/ü · 24h ✓" };
    expect((await send(alice, odd)).status).toBe(200);
    expect((await send(alice, odd)).status).toBe(409);
    expect(await amuletTotal(s, bob)).toBe("11.5000000000");
    expect(await amuletTotal(s, alice)).toBe("88.5000000000");
  });

  it("on gRPC: the same use case, ALREADY_EXISTS on a retried id", async () => {
    await grpc.wallet.transferPreapprovalSend({ receiverPartyId: bob.party, amount: "0.5", deduplicationId: "g-1" }, bearer(alice));
    const err = await grpc.wallet.transferPreapprovalSend({ receiverPartyId: bob.party, amount: "0.5", deduplicationId: "g-1" }, bearer(alice)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.AlreadyExists);
    expect(await amuletTotal(s, bob)).toBe("12.0000000000");
  });

  it("refuses bad requests with their status and {error}, changing nothing", async () => {
    const noPreapproval = await onboard(s, "erin");
    const ok = { receiver_party_id: bob.party, amount: "1", deduplication_id: "refused" };
    const cases: [unknown, number, RegExp][] = [
      ["{", 400, /not JSON/],
      [{ ...ok, amount: 1 }, 400, /amount: expected a string/],
      [{ receiver_party_id: bob.party, amount: "1" }, 400, /deduplication_id: missing required field/],
      [{ ...ok, memo: "x" }, 400, /memo: unknown field/],
      [{ ...ok, amount: "0" }, 400, /amount: must be greater than zero/],
      [{ ...ok, amount: "-1" }, 400, /amount: must be greater than zero/],
      [{ ...ok, amount: "ten" }, 400, /amount: not a decimal number/],
      [{ ...ok, amount: "1.00000000001" }, 400, /amount: more than 10 decimal places/],
      [{ ...ok, deduplication_id: "" }, 400, /deduplication_id must not be empty/],
      [{ ...ok, receiver_party_id: "bob" }, 400, /receiver_party_id: "bob" is not a party id/],
      [{ ...ok, receiver_party_id: `nobody::${bob.party.split("::")[1]}` }, 404, /receiver_party_id: party nobody::.* does not exist/],
      [{ ...ok, receiver_party_id: noPreapproval.party }, 400, /does not have a TransferPreapproval/],
      [{ ...ok, amount: "1000000" }, 400, /insufficient funds: 1000000\.0000000000 CC requested/],
    ];
    const before = [await amuletTotal(s, alice), await amuletTotal(s, bob)];
    for (const [body, status, error] of cases) {
      const r = await send(alice, body);
      expect(r.status, `${JSON.stringify(body)} -> ${r.text}`).toBe(status);
      expect(r.body.error).toMatch(error);
    }
    expect([await amuletTotal(s, alice), await amuletTotal(s, bob)]).toEqual(before);
    // a refused id stays usable
    expect((await send(alice, ok)).status).toBe(200);
  });
});

describe("numeric overflow (issue #10): one user cannot break another's wallet", () => {
  /** A ledger-level tap, past the wallet's per-tap cap: the ledger can hold any single amount in range. */
  /** A DevNet tap through the Ledger API's path (no wallet in between), or the DSO's own mint. */
  async function ledgerMint(party: string, amount: string, as: "tap" | "dso"): Promise<void> {
    const deps = ccDeps(s);
    const state = await readNetwork(deps.client, deps.dso);
    const round = latestOpenRound(state, deps.clock.now());
    const arg = { receiver: party, amount: Numeric.parse(amount), openRound: round.contractId };
    const disclosed = { disclosed: [state.rules.record, round.record] };
    if (as === "tap") await deps.client.exercise([party], AmuletRules, state.rules.contractId, AmuletRules_DevNet_Tap, arg, disclosed);
    else await deps.client.exercise([deps.dso, party], AmuletRules, state.rules.contractId, AmuletRules_Mint, arg, disclosed);
  }
  const huge = "9".repeat(28);

  it("caps tap; a huge send leaves the victim's balance exact and its sends working", async () => {
    const [mallory, victim] = [await onboard(s, "mallory"), await onboard(s, "victim")];
    await fund(s, operator.party, "1000");
    expect((await call("POST", "/v0/wallet/transfer-preapproval", victim)).status).toBe(200);
    // Reads and taps go around `call`: this file's OpenAPI check covers the preapproval operations only.
    const capped = await s.json("POST", "/v0/wallet/tap", { amount: huge }, mallory.token);
    expect(capped.status).toBe(400);
    expect(capped.body.error).toMatch(/at most 1000000\.0000000000 CC per tap/);
    await fund(s, victim.party, "5");
    // The cap holds on the ledger too (a user could exercise the tap choice directly); the DSO's mint has none.
    await expect(ledgerMint(mallory.party, huge, "tap")).rejects.toThrow(/a DevNet tap mints at most 1000000/);
    await ledgerMint(mallory.party, huge, "dso");
    const sent = await call("POST", "/v0/wallet/transfer-preapproval/send", mallory, { receiver_party_id: victim.party, amount: huge, deduplication_id: "huge" });
    expect(sent.status, sent.text).toBe(200);
    const balance = await s.json("GET", "/v0/wallet/balance", undefined, victim.token);
    expect(balance.status).toBe(200);
    expect(balance.body.effective_unlocked_qty).toBe("10000000000000000000000000004.0000000000");
    expect((await s.json("GET", "/v0/wallet/amulets", undefined, victim.token)).status).toBe(200);
    expect((await s.json("POST", "/v0/wallet/transactions", { page_size: 10 }, victim.token)).status).toBe(200);
    const small = await call("POST", "/v0/wallet/transfer-preapproval/send", victim, { receiver_party_id: alice.party, amount: "1", deduplication_id: "small" });
    expect(small.status, small.text).toBe(200);
  });
});

describe("@grpc/grpc-js with the protos in proto/ccwallet", () => {
  it("creates (ALREADY_EXISTS when it exists) and sends with snake_case fields", async () => {
    const js = grpcJs(s);
    try {
      const exists = await js.wallet("CreateTransferPreapproval", {}, alice).catch((e: ServiceError) => e);
      expect((exists as ServiceError).code).toBe(status.ALREADY_EXISTS);
      const before = Numeric.parse(await amuletTotal(s, bob));
      expect(await js.wallet("TransferPreapprovalSend", { receiver_party_id: bob.party, amount: "0.25", deduplication_id: "js-1" }, alice)).toEqual({});
      expect(await amuletTotal(s, bob)).toBe(before.add(Numeric.parse("0.25")).toString());
      const bad = await js.wallet("TransferPreapprovalSend", { receiver_party_id: bob.party, amount: "0.25", deduplication_id: "" }, alice).catch((e: ServiceError) => e);
      expect((bad as ServiceError).code).toBe(status.INVALID_ARGUMENT);
    } finally {
      js.close();
    }
  });
});

describeOpenApiConformance(() => log, { title: "every 200 and the 409-with-result conform, every error body is {error}", success: (status) => status === 200 || status === 409, operations: ["wallet-internal.yaml#createTransferPreapproval", "wallet-internal.yaml#transferPreapprovalSend"] });
