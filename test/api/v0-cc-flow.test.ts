/**
 * Canton Coin as an outside client sees it: only `/v2`, the scan-proxy reads and the registry.
 * Tap on DevNet with disclosed contracts from scan-proxy, two-step token-standard transfers
 * (factory and choice context from the registry, submitted through /v2) accepted, rejected,
 * withdrawn and left to expire, a one-step transfer through the receiver's preapproval, each
 * effect checked in the ledger's events and balances, and the wallet's own balance / amulets /
 * tap endpoints over HTTP and gRPC.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WalletService } from "../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { loadOpenApi, ResponseLog } from "../support/openapi-validator.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let operator: string;
const log = new ResponseLog();
const openapi = loadOpenApi();

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const r = await s.json(method, path, body, token);
  log.add(method, path, r.status, r.body);
  return r;
}

async function onboard(name: string): Promise<{ party: string; token: string }> {
  const r = await call("POST", "/v0/admin/users", operator, { name });
  expect(r.status).toBe(200);
  return { party: r.body.party_id, token: await s.token(name) };
}

type Disclosed = { contractId: string; templateId: string; createdEventBlob: string; synchronizerId: string };
const disclose = (c: { contract: { contract_id: string; template_id: string; created_event_blob: string }; domain_id: string }): Disclosed => ({
  contractId: c.contract.contract_id,
  templateId: c.contract.template_id,
  createdEventBlob: c.contract.created_event_blob,
  synchronizerId: c.domain_id,
});

beforeAll(async () => {
  s = await startTestServer();
  operator = await s.token("administrator");
});
afterAll(() => s?.stop());

describe("a /v2-only client with scan-proxy and registry", () => {
  let alice: { party: string; token: string };
  let bob: { party: string; token: string };

  it("taps on DevNet through /v2 with the rules and round disclosed from scan-proxy", async () => {
    alice = await onboard("alice");
    bob = await onboard("bob");
    const dso = (await call("GET", "/v0/scan-proxy/dso-party-id", alice.token)).body.dso_party_id as string;
    expect(dso).toMatch(/^DSO::1220/);
    const rules = (await call("GET", "/api/validator/v0/scan-proxy/amulet-rules", alice.token)).body.amulet_rules;
    const rounds = (await call("GET", "/v0/scan-proxy/open-and-issuing-mining-rounds", alice.token)).body;
    expect(rounds.open_mining_rounds.length).toBe(3);
    const now = Date.now();
    const open = rounds.open_mining_rounds.filter((r: any) => Date.parse(r.contract.payload.opensAt) <= now);
    const round = open[open.length - 1];
    const r = await s.json(
      "POST",
      "/v2/commands/submit-and-wait-for-transaction",
      {
        commands: {
          commandId: "tap-1",
          actAs: [alice.party],
          commands: [
            {
              ExerciseCommand: {
                templateId: "#splice-amulet:Splice.AmuletRules:AmuletRules",
                contractId: rules.contract.contract_id,
                choice: "AmuletRules_DevNet_Tap",
                choiceArgument: { receiver: alice.party, amount: "100.0", openRound: round.contract.contract_id },
              },
            },
          ],
          disclosedContracts: [disclose(rules), disclose(round)],
        },
      },
      alice.token,
    );
    expect(r.status, r.text).toBe(200);
    const balance = await call("GET", "/v0/wallet/balance", alice.token);
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({ effective_unlocked_qty: "100.0000000000", effective_locked_qty: "0.0000000000", total_holding_fees: "0.0000000000" });
  });

  it("runs a two-step token-standard transfer with the registry's factory and choice contexts", async () => {
    const holdings = (await call("GET", "/v0/wallet/amulets", alice.token)).body.amulets as any[];
    expect(holdings).toHaveLength(1);
    const dso = (await call("GET", "/v0/scan-proxy/dso-party-id", alice.token)).body.dso_party_id as string;
    const nowIso = (ms: number) => new Date(Date.now() + ms).toISOString();
    const choiceArguments = {
      expectedAdmin: dso,
      transfer: {
        sender: alice.party,
        receiver: bob.party,
        amount: "10.0",
        instrumentId: { admin: dso, id: "Amulet" },
        requestedAt: nowIso(-1000),
        executeBefore: nowIso(3_600_000),
        inputHoldingCids: [holdings[0].contract.contract.contract_id],
        meta: { values: {} },
      },
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    };
    const factory = await s.json("POST", "/registry/transfer-instruction/v1/transfer-factory", { choiceArguments, excludeDebugFields: true }, null);
    expect(factory.status, factory.text).toBe(200);
    expect(factory.body.transferKind).toBe("offer");
    const submit = await s.json(
      "POST",
      "/v2/commands/submit-and-wait-for-transaction",
      {
        commands: {
          commandId: "ts-1",
          actAs: [alice.party],
          commands: [
            {
              ExerciseCommand: {
                templateId: "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferFactory",
                contractId: factory.body.factoryId,
                choice: "TransferFactory_Transfer",
                choiceArgument: { ...choiceArguments, extraArgs: { context: factory.body.choiceContext.choiceContextData, meta: { values: {} } } },
              },
            },
          ],
          disclosedContracts: factory.body.choiceContext.disclosedContracts,
        },
        transactionFormat: {
          eventFormat: { filtersByParty: { [alice.party]: { cumulative: [] } }, verbose: false },
          transactionShape: "TRANSACTION_SHAPE_LEDGER_EFFECTS",
        },
      },
      alice.token,
    );
    expect(submit.status, submit.text).toBe(200);
    const created = (submit.body.transaction.events as any[]).filter((e) => e.CreatedEvent).map((e) => e.CreatedEvent);
    const instruction = created.find((c) => c.templateId.endsWith(":Splice.AmuletTransferInstruction:AmuletTransferInstruction"));
    expect(instruction).toBeDefined();
    const balanceLocked = (await call("GET", "/v0/wallet/balance", alice.token)).body;
    expect(Number(balanceLocked.effective_locked_qty)).toBeGreaterThanOrEqual(10);

    const ctx = await s.json("POST", `/registry/transfer-instruction/v1/${instruction.contractId}/choice-contexts/accept`, { excludeDebugFields: true }, null);
    expect(ctx.status, ctx.text).toBe(200);
    const accept = await s.json(
      "POST",
      "/v2/commands/submit-and-wait",
      {
        commandId: "ts-accept",
        actAs: [bob.party],
        commands: [
          {
            ExerciseCommand: {
              templateId: "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferInstruction",
              contractId: instruction.contractId,
              choice: "TransferInstruction_Accept",
              choiceArgument: { extraArgs: { context: ctx.body.choiceContextData, meta: { values: {} } } },
            },
          },
        ],
        disclosedContracts: ctx.body.disclosedContracts,
      },
      bob.token,
    );
    expect(accept.status, accept.text).toBe(200);
    expect((await call("GET", "/v0/wallet/balance", bob.token)).body.effective_unlocked_qty).toBe("10.0000000000");
    const aliceAfter = (await call("GET", "/v0/wallet/balance", alice.token)).body;
    expect(aliceAfter.effective_locked_qty).toBe("0.0000000000");
    expect(aliceAfter.effective_unlocked_qty).toBe("90.0000000000");
  });

  it("taps and lists through the wallet API on gRPC and under /coins", async () => {
    const transport = createGrpcTransport({ baseUrl: s.grpc });
    const wallet = createClient(WalletService, transport);
    const headers = { authorization: `Bearer ${bob.token}` };
    const tapped = await wallet.tap({ amount: "5" }, { headers });
    expect(tapped.contractId).toMatch(/^00/);
    // `/coins` is the mission's name for `/amulets` (not in the OpenAPI): same body, checked as `/amulets`.
    const coins = await s.json("GET", "/v0/wallet/coins", undefined, bob.token);
    log.add("GET", "/v0/wallet/amulets", coins.status, coins.body);
    expect(coins.status).toBe(200);
    expect((coins.body.amulets as any[]).map((a) => a.effective_amount).sort()).toEqual(["10.0000000000", "5.0000000000"]);
    const bad = await call("POST", "/v0/wallet/tap", bob.token, { amount: "1.00000000001" });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe("string");
    const none = await call("GET", `/v0/scan-proxy/transfer-preapprovals/by-party/${encodeURIComponent(bob.party)}`, bob.token);
    expect(none.status).toBe(404);
  });

  describe("the rest of the token standard, still /v2 only", () => {
    let carol: { party: string; token: string };
    let dave: { party: string; token: string };
    let dso: string;
    const TI = "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1";
    const AMULET = ":Splice.Amulet:Amulet";
    const balance = async (w: { token: string }) => (await call("GET", "/v0/wallet/balance", w.token)).body;
    const events = (r: { body: any }) => (r.body.transaction.events as any[]).map((e) => Object.keys(e)[0] + " " + (Object.values(e)[0] as any).templateId.split(":").slice(1).join(":"));
    const submit = (w: { party: string; token: string }, commandId: string, command: unknown, disclosedContracts: unknown[]) =>
      s.json(
        "POST",
        "/v2/commands/submit-and-wait-for-transaction",
        {
          commands: { commandId, actAs: [w.party], commands: [{ ExerciseCommand: command }], disclosedContracts },
          transactionFormat: { eventFormat: { filtersByParty: { [w.party]: { cumulative: [] } }, verbose: false }, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" },
        },
        w.token,
      );

    /** TransferFactory_Transfer from carol to `receiver`, with the factory and context the registry gives. */
    async function transfer(receiver: string, amount: string, executeInMs: number, commandId: string) {
      const inputs = ((await call("GET", "/v0/wallet/amulets", carol.token)).body.amulets as any[]).map((a) => a.contract.contract.contract_id);
      const choiceArguments = {
        expectedAdmin: dso,
        transfer: {
          sender: carol.party,
          receiver,
          amount,
          instrumentId: { admin: dso, id: "Amulet" },
          requestedAt: new Date(Date.now() - 1000).toISOString(),
          executeBefore: new Date(Date.now() + executeInMs).toISOString(),
          inputHoldingCids: inputs,
          meta: { values: {} },
        },
        extraArgs: { context: { values: {} }, meta: { values: {} } },
      };
      const factory = await s.json("POST", "/v0/scan-proxy/registry/transfer-instruction/v1/transfer-factory", { choiceArguments, excludeDebugFields: true }, carol.token);
      expect(factory.status, factory.text).toBe(200);
      const argument = { ...choiceArguments, extraArgs: { context: factory.body.choiceContext.choiceContextData, meta: { values: {} } } };
      const r = await submit(carol, commandId, { templateId: `${TI}:TransferFactory`, contractId: factory.body.factoryId, choice: "TransferFactory_Transfer", choiceArgument: argument }, factory.body.choiceContext.disclosedContracts);
      expect(r.status, r.text).toBe(200);
      return { kind: factory.body.transferKind as string, result: r };
    }

    async function answer(w: { party: string; token: string }, instruction: string, action: "accept" | "reject" | "withdraw", choice: string) {
      const ctx = await s.json("POST", `/registry/transfer-instruction/v1/${instruction}/choice-contexts/${action}`, { excludeDebugFields: true }, null);
      expect(ctx.status, ctx.text).toBe(200);
      const r = await submit(w, `${action}-${instruction.slice(0, 12)}`, { templateId: `${TI}:TransferInstruction`, contractId: instruction, choice, choiceArgument: { extraArgs: { context: ctx.body.choiceContextData, meta: { values: {} } } } }, ctx.body.disclosedContracts);
      expect(r.status, r.text).toBe(200);
      return r;
    }

    const instructionOf = (r: { body: any }) =>
      (r.body.transaction.events as any[]).map((e) => e.CreatedEvent).find((c) => c?.templateId.endsWith(":Splice.AmuletTransferInstruction:AmuletTransferInstruction")).contractId as string;

    it("reject and withdraw give the locked CC back to the sender, with the effects as ledger events", async () => {
      [carol, dave] = [await onboard("carol"), await onboard("dave")];
      dso = (await call("GET", "/v0/scan-proxy/dso-party-id", carol.token)).body.dso_party_id;
      expect((await call("POST", "/v0/wallet/tap", carol.token, { amount: "50" })).status).toBe(200);

      const offered = await transfer(dave.party, "7", 3_600_000, "ts-reject");
      expect(offered.kind).toBe("offer");
      // The lock holds the amount plus the holding fees it may accrue until executeBefore.
      const locked = await balance(carol);
      expect(Number(locked.effective_locked_qty)).toBeGreaterThan(7);
      expect(Number(locked.effective_locked_qty) + Number(locked.effective_unlocked_qty)).toBeCloseTo(50, 10);
      const rejected = await answer(dave, instructionOf(offered.result), "reject", "TransferInstruction_Reject");
      expect(events(rejected).sort()).toEqual(["ArchivedEvent Splice.AmuletTransferInstruction:AmuletTransferInstruction"]);
      expect(await balance(carol)).toMatchObject({ effective_unlocked_qty: "50.0000000000", effective_locked_qty: "0.0000000000" });
      expect((await balance(dave)).effective_unlocked_qty).toBe("0.0000000000");

      const withdrawn = await answer(carol, instructionOf(await transfer(dave.party, "8", 3_600_000, "ts-withdraw").then((t) => t.result)), "withdraw", "TransferInstruction_Withdraw");
      expect(events(withdrawn).sort()).toEqual([
        "ArchivedEvent Splice.Amulet:LockedAmulet",
        "ArchivedEvent Splice.AmuletTransferInstruction:AmuletTransferInstruction",
        `CreatedEvent ${AMULET.slice(1)}`,
      ]);
      expect(await balance(carol)).toMatchObject({ effective_unlocked_qty: "50.0000000000", effective_locked_qty: "0.0000000000" });
    });

    it("an instruction nobody answers expires: the DSO's automation unlocks the CC", async () => {
      const offered = await transfer(dave.party, "9", 1_500, "ts-expire");
      const instruction = instructionOf(offered.result);
      expect(Number((await balance(carol)).effective_locked_qty)).toBeGreaterThan(9);
      for (let i = 0; i < 100 && (await balance(carol)).effective_locked_qty !== "0.0000000000"; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await balance(carol)).toMatchObject({ effective_unlocked_qty: "50.0000000000", effective_locked_qty: "0.0000000000" });
      const ctx = await s.json("POST", `/registry/transfer-instruction/v1/${instruction}/choice-contexts/accept`, { excludeDebugFields: true }, null);
      expect(ctx.status).toBe(404);
    });

    it("with the receiver's preapproval the transfer is one step: the receiver holds the CC at once", async () => {
      expect((await call("POST", "/v0/wallet/tap", operator, { amount: "100" })).status).toBe(200);
      expect((await call("POST", "/v0/wallet/transfer-preapproval", dave.token)).status).toBe(200);
      const direct = await transfer(dave.party, "5", 3_600_000, "ts-direct");
      expect(direct.kind).toBe("direct");
      expect(events(direct.result).filter((e) => e.startsWith("CreatedEvent")).sort()).toEqual([`CreatedEvent ${AMULET.slice(1)}`]);
      expect((await balance(dave)).effective_unlocked_qty).toBe("5.0000000000");
      expect((await balance(carol)).effective_unlocked_qty).toBe("45.0000000000");
    });
  });

  it.skipIf(!openapi)("every 200 body conforms to the Splice OpenAPI", () => {
    const { problems, operations } = log.check(openapi!);
    expect(problems).toEqual([]);
    expect(operations.size).toBeGreaterThanOrEqual(6);
  });
});
