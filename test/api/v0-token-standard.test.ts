/**
 * `/v0/wallet/token-standard/transfers` over real HTTP and gRPC: the wallet instructs CC transfers
 * through the token standard's TransferFactory and the registry's choice contexts, with the
 * caller's party acting; receivers accept or reject, senders withdraw. Tracking ids are
 * idempotency keys. Every effect is checked on `/v2`, every 200 body against the Splice OpenAPI.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { status, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaticClock } from "../../src/ledger/clock.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { ResponseLog } from "../support/openapi-validator.js";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { acs, amuletTotal, bearer, caller, DAY, fund, grpcClients, grpcJs, holdSubmissions, ofTemplate, onboard, operatorWallet, type GrpcClients, type Wallet } from "./v0-coin-support.js";

const INSTRUCTION = "Splice.AmuletTransferInstruction:AmuletTransferInstruction";
const LOCKED = "Splice.Amulet:LockedAmulet";
const REASON = "splice.lfdecentralizedtrust.org/reason";

let s: TestServer;
let grpc: GrpcClients;
let alice: Wallet;
let bob: Wallet;
let carol: Wallet;
const log = new ResponseLog();
let call: ReturnType<typeof caller>;
let n = 0;

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_TIME: "static" });
  call = caller(s, log);
  grpc = grpcClients(s);
  [alice, bob, carol] = [await onboard(s, "alice"), await onboard(s, "bob"), await onboard(s, "carol")];
  await fund(s, alice.party, "100");
});
afterAll(() => s?.stop());

const expiresIn = (micros: bigint) => Number(s.server.api.clock.now() + micros);
const transfer = (to: Wallet, amount: string, extra: Record<string, unknown> = {}) => ({
  receiver_party_id: to.party,
  amount,
  description: "rent",
  expires_at: expiresIn(DAY),
  tracking_id: `t-${++n}`,
  ...extra,
});
const create = (from: Wallet, body: unknown, prefix = "") => call("POST", `${prefix}/v0/wallet/token-standard/transfers`, from, body);
const act = (w: Wallet, cid: string, action: string) => call("POST", `/v0/wallet/token-standard/transfers/${cid}/${action}`, w);
const listed = async (w: Wallet) => {
  const r = await call("GET", "/v0/wallet/token-standard/transfers", w);
  expect(r.status).toBe(200);
  return (r.body.transfers as { contract_id: string }[]).map((c) => c.contract_id);
};
const instructionsOf = async (w: Wallet) => ofTemplate(await acs(s, w), INSTRUCTION).map((c) => c.contractId);
const lockedOf = async (w: Wallet) => ofTemplate(await acs(s, w), LOCKED).map((c) => c.createArgument.amulet.amount.initialAmount);

async function pending(from: Wallet, to: Wallet, amount: string): Promise<string> {
  const r = await create(from, transfer(to, amount));
  expect(r.status, r.text).toBe(200);
  return r.body.output.transfer_instruction_cid;
}

describe("POST /v0/wallet/token-standard/transfers (offer) and accept", () => {
  it("locks the CC in a transfer instruction both sides list; the receiver's accept moves it", async () => {
    const r = await create(alice, transfer(bob, "10"));
    expect(r.status, r.text).toBe(200);
    const cid = r.body.output.transfer_instruction_cid;
    expect(Object.keys(r.body.output)).toEqual(["transfer_instruction_cid"]);
    expect(r.body.sender_change_cids).toHaveLength(1);
    // on the ledger: the instruction (sender and DSO sign, receiver observes) and the locked CC
    const [instruction] = ofTemplate(await acs(s, bob), INSTRUCTION);
    expect(instruction.contractId).toBe(cid);
    expect(instruction.createArgument.transfer).toMatchObject({ sender: alice.party, receiver: bob.party, amount: "10.0000000000", meta: { values: { [REASON]: "rent" } } });
    const [locked] = await lockedOf(alice);
    expect(Number(locked)).toBeGreaterThan(10); // the amount and the fee reserve of the second step
    expect(Numeric.parse(await amuletTotal(s, alice)).add(Numeric.parse(locked)).toString()).toBe("100.0000000000");
    expect(await listed(alice)).toEqual([cid]);
    expect(await listed(bob)).toEqual([cid]);
    expect(await listed(carol)).toEqual([]);

    const accepted = await act(bob, cid, "accept");
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.output.receiver_holding_cids).toHaveLength(1);
    expect(await amuletTotal(s, bob)).toBe("10.0000000000");
    expect(await lockedOf(alice)).toEqual([]);
    expect(await instructionsOf(alice)).toEqual([]);
    expect(await listed(bob)).toEqual([]);
  });

  it("the receiver's reject and the sender's withdraw give the CC back (output failed)", async () => {
    const rejected = await pending(alice, bob, "5");
    const r = await act(bob, rejected, "reject");
    expect(r.status, r.text).toBe(200);
    expect(r.body.output).toEqual({});
    expect(r.body.sender_change_cids).toHaveLength(1);
    const withdrawn = await pending(alice, bob, "7");
    const w = await call("POST", `/api/validator/v0/wallet/token-standard/transfers/${withdrawn}/withdraw`, alice);
    expect(w.status, w.text).toBe(200);
    expect(w.body.output).toEqual({});
    expect(await lockedOf(alice)).toEqual([]);
    expect(await instructionsOf(bob)).toEqual([]);
    expect(await amuletTotal(s, alice)).toBe("90.0000000000");
    expect(await amuletTotal(s, bob)).toBe("10.0000000000");
  });

  it("refuses the wrong side and strangers, unknown and malformed ids, changing nothing", async () => {
    const cid = await pending(alice, bob, "3");
    const before = [await instructionsOf(alice), await lockedOf(alice), await amuletTotal(s, bob)];
    const cases: [Wallet, string, string, number, RegExp][] = [
      [bob, cid, "withdraw", 400, /only the sender of transfer .* can withdraw it/],
      [alice, cid, "accept", 400, /only the receiver of transfer .* can accept it/],
      [alice, cid, "reject", 400, /only the receiver of transfer .* can reject it/],
      [carol, cid, "accept", 404, /no open token-standard transfer/],
      [carol, cid, "withdraw", 404, /no open token-standard transfer/],
      [bob, "00" + "ab".repeat(33), "accept", 404, /no open token-standard transfer/],
      [bob, "not-a-cid", "accept", 400, /contract_id: "not-a-cid" is not a contract id/],
    ];
    for (const [who, id, action, status, error] of cases) {
      const r = await act(who, id, action);
      expect(r.status, `${who.user} ${action} -> ${r.text}`).toBe(status);
      expect(r.body.error).toMatch(error);
    }
    // a holding's contract id is not a transfer instruction
    const holding = ofTemplate(await acs(s, bob), "Splice.Amulet:Amulet")[0].contractId;
    expect((await act(bob, holding, "accept")).status).toBe(404);
    expect([await instructionsOf(alice), await lockedOf(alice), await amuletTotal(s, bob)]).toEqual(before);
    expect((await act(alice, cid, "withdraw")).status).toBe(200);
  });

  it("past its deadline the DSO expires the instruction: the CC is unlocked and accepting is 404", async () => {
    const before = await amuletTotal(s, alice);
    const r = await create(alice, transfer(bob, "2", { expires_at: expiresIn(1_000_000n) }));
    const cid = r.body.output.transfer_instruction_cid;
    const clock = s.server.api.clock as StaticClock;
    clock.set(clock.now(), clock.now() + 2_000_000n);
    await s.server.network.automation.settled();
    expect(await instructionsOf(bob)).toEqual([]);
    expect(await lockedOf(alice)).toEqual([]);
    expect(await amuletTotal(s, alice)).toBe(before);
    expect(await act(bob, cid, "accept")).toMatchObject({ status: 404, body: { error: expect.stringMatching(/no open token-standard transfer/) } });
  });
});

describe("POST /v0/wallet/token-standard/transfers: direct, idempotency, refusals", () => {
  it("completes at once when the receiver has a preapproval", async () => {
    const operator = await operatorWallet(s);
    await fund(s, operator.party, "1000");
    expect((await call("POST", "/v0/wallet/transfer-preapproval", carol)).status).toBe(200);
    const r = await create(alice, transfer(carol, "4"));
    expect(r.status, r.text).toBe(200);
    expect(r.body.output.receiver_holding_cids).toHaveLength(1);
    expect(await amuletTotal(s, carol)).toBe("4.0000000000");
    expect(await instructionsOf(carol)).toEqual([]);
  });

  it("tracking_id: a created transfer answers 409, one in flight 429; only one transfer results", async () => {
    const body = transfer(bob, "1", { tracking_id: "once" });
    expect((await create(alice, body)).status).toBe(200);
    const again = await create(alice, body, "/api/validator");
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already been successfully processed/);
    const racing = transfer(bob, "1", { tracking_id: "racing" });
    const hold = holdSubmissions(s);
    const first = create(alice, racing);
    await hold.entered;
    const second = await create(alice, racing);
    hold.release();
    expect(second).toMatchObject({ status: 429, body: { error: "a token-standard transfer with tracking id racing is being processed; retry later" } });
    expect((await first).status).toBe(200);
    expect((await create(alice, racing)).status).toBe(409);
    const instructions = ofTemplate(await acs(s, bob), INSTRUCTION).filter((c) => c.createArgument.transfer.amount === "1.0000000000");
    expect(instructions).toHaveLength(2);
  });

  it("refuses bad requests with their status and {error}, changing nothing", async () => {
    const ok = transfer(bob, "1", { tracking_id: "refused" });
    const cases: [unknown, number, RegExp][] = [
      ["{", 400, /not JSON/],
      [{ ...ok, amount: 1 }, 400, /amount: expected a string/],
      [{ ...ok, expires_at: String(ok.expires_at) }, 400, /expires_at: expected an integer/],
      [{ ...ok, tracking_id: undefined }, 400, /tracking_id: missing required field/],
      [{ ...ok, extra: true }, 400, /extra: unknown field/],
      [{ ...ok, amount: "0" }, 400, /amount: must be greater than zero/],
      [{ ...ok, amount: "0.12345678901" }, 400, /amount: more than 10 decimal places/],
      [{ ...ok, amount: "1000" }, 400, /insufficient funds/],
      [{ ...ok, expires_at: expiresIn(0n) }, 400, /expires_at .* is not in the future/],
      [{ ...ok, tracking_id: "" }, 400, /tracking_id must not be empty/],
      [{ ...ok, receiver_party_id: "bob" }, 400, /receiver_party_id: "bob" is not a party id/],
      [{ ...ok, receiver_party_id: `ghost::${bob.party.split("::")[1]}` }, 404, /receiver_party_id: party ghost::.* does not exist/],
    ];
    const before = [await acs(s, alice), await acs(s, bob)].map((xs) => xs.map((c) => c.contractId).sort());
    for (const [body, status, error] of cases) {
      const r = await create(alice, body);
      expect(r.status, `${JSON.stringify(body)} -> ${r.text}`).toBe(status);
      expect(r.body.error).toMatch(error);
    }
    const after = [await acs(s, alice), await acs(s, bob)].map((xs) => xs.map((c) => c.contractId).sort());
    expect(after).toEqual(before);
    expect((await create(alice, ok)).status).toBe(200);
  });

  it("on gRPC: create, list and accept with the Connect client", async () => {
    const created = await grpc.wallet.createTokenStandardTransfer(
      { receiverPartyId: bob.party, amount: "2", description: "grpc", expiresAt: BigInt(expiresIn(DAY)), trackingId: "grpc-1" },
      bearer(alice),
    );
    expect(created.output?.output.case).toBe("pending");
    const cid = created.output?.output.case === "pending" ? created.output.output.value.transferInstructionCid : "";
    expect((await grpc.wallet.listTokenStandardTransfers({}, bearer(bob))).transfers.map((c) => c.contractId)).toContain(cid);
    const accepted = await grpc.wallet.acceptTokenStandardTransfer({ contractId: cid }, bearer(bob));
    expect(accepted.output?.output.case).toBe("completed");
    const err = await grpc.wallet.acceptTokenStandardTransfer({ contractId: cid }, bearer(bob)).catch((e: unknown) => e);
    expect((err as ConnectError).code).toBe(Code.NotFound);
  });
});

describe("@grpc/grpc-js with the protos in proto/ccwallet", () => {
  it("creates, rejects and withdraws with snake_case fields; refusals as status codes", async () => {
    const js = grpcJs(s);
    try {
      const req = (tracking_id: string) => ({ receiver_party_id: bob.party, amount: "1", description: "js", expires_at: String(expiresIn(DAY)), tracking_id });
      const a = await js.wallet("CreateTokenStandardTransfer", req("js-1"), alice);
      expect(a.output.output).toBe("pending");
      const rejected = await js.wallet("RejectTokenStandardTransfer", { contract_id: a.output.pending.transfer_instruction_cid }, bob);
      expect(rejected.output.output).toBe("failed");
      const b = await js.wallet("CreateTokenStandardTransfer", req("js-2"), alice);
      const denied = await js.wallet("WithdrawTokenStandardTransfer", { contract_id: b.output.pending.transfer_instruction_cid }, bob).catch((e: ServiceError) => e);
      expect((denied as ServiceError).code).toBe(status.INVALID_ARGUMENT);
      const withdrawn = await js.wallet("WithdrawTokenStandardTransfer", { contract_id: b.output.pending.transfer_instruction_cid }, alice);
      expect(withdrawn.sender_change_cids).toHaveLength(1);
      const dup = await js.wallet("CreateTokenStandardTransfer", req("js-1"), alice).catch((e: ServiceError) => e);
      expect((dup as ServiceError).code).toBe(status.ALREADY_EXISTS);
    } finally {
      js.close();
    }
  });
});

describeOpenApiConformance(() => log, {
  title: "every 200 body conforms, every error body is {error}",
  operations: [
    "wallet-internal.yaml#acceptTokenStandardTransfer",
    "wallet-internal.yaml#createTokenStandardTransfer",
    "wallet-internal.yaml#createTransferPreapproval",
    "wallet-internal.yaml#listTokenStandardTransfers",
    "wallet-internal.yaml#rejectTokenStandardTransfer",
    "wallet-internal.yaml#withdrawTokenStandardTransfer",
  ],
});
