/**
 * The registry's allocation endpoints over real HTTP and gRPC, as a settlement app uses them with
 * only `/v2`: the allocation factory (allocation-instruction-v1) and the allocation's choice
 * contexts (allocation-v1), public and also behind the scan proxy; the sender allocates, the
 * venue settles with the sender's and receiver's authority, and every effect shows on `/v2`.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenStandardRegistryService } from "../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { acs, amuletTotal, fund, ofTemplate, type Wallet } from "./v0-coin-support.js";

const AI = "#splice-api-token-allocation-instruction-v1:Splice.Api.Token.AllocationInstructionV1";
const AL = "#splice-api-token-allocation-v1:Splice.Api.Token.AllocationV1";
const ALLOCATION = "Splice.AmuletAllocation:AmuletAllocation";

let s: TestServer;
let alice: Wallet;
let bob: Wallet;
let venue: string;
let settler: string;
let dso: string;
let n = 0;

beforeAll(async () => {
  s = await startTestServer();
  [alice, bob] = [await s.partyUser("alice"), await s.partyUser("bob")];
  venue = s.server.network.parties.validator;
  dso = (await s.json("GET", "/registry/metadata/v1/info", undefined, null)).body.adminId;
  const actAs = [venue, alice.party, bob.party].map((party) => ({ kind: { CanActAs: { value: { party } } } }));
  expect((await s.json("POST", "/v2/users", { user: { id: "settler", primaryParty: venue }, rights: actAs })).status).toBe(200);
  settler = await s.token("settler");
  await fund(s, alice.party, "100");
});
afterAll(() => s?.stop());

const iso = (fromNowMs: number) => new Date(Date.now() + fromNowMs).toISOString();

function allocateArguments(holdings: string[]) {
  const meta = { values: {} };
  return {
    expectedAdmin: dso,
    allocation: {
      settlement: { executor: venue, settlementRef: { id: `trade-${++n}`, cid: null }, requestedAt: iso(-1000), allocateBefore: iso(1_800_000), settleBefore: iso(3_600_000), meta },
      transferLegId: "leg-0",
      transferLeg: { sender: alice.party, receiver: bob.party, amount: "10.0000000000", instrumentId: { admin: dso, id: "Amulet" }, meta },
    },
    requestedAt: iso(-1000),
    inputHoldingCids: holdings,
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

async function submit(token: string, actAs: string[], exercise: Record<string, unknown>, disclosedContracts: unknown[]) {
  const commands = { commandId: `alloc-${++n}`, actAs, commands: [{ ExerciseCommand: exercise }], disclosedContracts };
  const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", { commands }, token);
  expect(r.status, r.text).toBe(200);
  return r.body.transaction.events as Record<string, { templateId: string; contractId: string }>[];
}

const contextKeys = (ctx: { choiceContextData: { values: Record<string, unknown> } }) => Object.keys(ctx.choiceContextData.values).sort();
const disclosedTemplates = (ctx: { disclosedContracts: { templateId: string }[] }) => ctx.disclosedContracts.map((d) => d.templateId.split(":").slice(1).join(":")).sort();

async function allocateViaRegistry(prefix = ""): Promise<string> {
  const holdings = ofTemplate(await acs(s, alice), "Splice.Amulet:Amulet").map((c) => c.contractId);
  const choiceArguments = allocateArguments(holdings);
  const factory = await s.json("POST", `${prefix}/registry/allocation-instruction/v1/allocation-factory`, { choiceArguments, excludeDebugFields: true }, prefix ? alice.token : null);
  expect(factory.status, factory.text).toBe(200);
  expect(Object.keys(factory.body).sort()).toEqual(["choiceContext", "factoryId"]);
  expect(contextKeys(factory.body.choiceContext)).toEqual(["amulet-rules", "open-round"]);
  expect(disclosedTemplates(factory.body.choiceContext)).toEqual(["Splice.AmuletRules:AmuletRules", "Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules", "Splice.Round:OpenMiningRound"]);
  const argument = { ...choiceArguments, extraArgs: { context: factory.body.choiceContext.choiceContextData, meta: { values: {} } } };
  const events = await submit(alice.token, [alice.party], { templateId: `${AI}:AllocationFactory`, contractId: factory.body.factoryId, choice: "AllocationFactory_Allocate", choiceArgument: argument }, factory.body.choiceContext.disclosedContracts);
  const created = events.map((e) => e.CreatedEvent).find((c) => c?.templateId.endsWith(`:${ALLOCATION}`));
  return created!.contractId;
}

const choiceContext = (cid: string, action: string, prefix = "") => s.json("POST", `${prefix}/registry/allocations/v1/${cid}/choice-contexts/${action}`, { excludeDebugFields: true }, null);

describe("registry allocation endpoints", () => {
  it("allocate, then execute-transfer with the registry's context: the receiver holds the leg", async () => {
    const cid = await allocateViaRegistry();
    expect(ofTemplate(await acs(s, alice), ALLOCATION).map((c) => c.contractId)).toEqual([cid]);
    const ctx = await choiceContext(cid, "execute-transfer");
    expect(ctx.status, ctx.text).toBe(200);
    // The venue executes: its featured app right is in the context, as Splice's scan gives it.
    expect(contextKeys(ctx.body)).toEqual(["amulet-rules", "expire-lock", "featured-app-right", "open-round"]);
    expect(ctx.body.choiceContextData.values["expire-lock"]).toEqual({ tag: "AV_Bool", value: true });
    expect(disclosedTemplates(ctx.body)).toEqual(["Splice.Amulet:FeaturedAppRight", "Splice.Amulet:LockedAmulet", "Splice.AmuletRules:AmuletRules", "Splice.Round:OpenMiningRound"]);
    const exercise = { templateId: `${AL}:Allocation`, contractId: cid, choice: "Allocation_ExecuteTransfer", choiceArgument: { extraArgs: { context: ctx.body.choiceContextData, meta: { values: {} } } } };
    await submit(settler, [venue, alice.party, bob.party], exercise, ctx.body.disclosedContracts);
    expect(await amuletTotal(s, bob)).toBe("10.0000000000");
    expect(ofTemplate(await acs(s, alice), ALLOCATION)).toEqual([]);
    expect(ofTemplate(await acs(s, alice), "Splice.Amulet:LockedAmulet")).toEqual([]);
    expect((await choiceContext(cid, "execute-transfer")).status).toBe(404);
  });

  it("withdraw and cancel contexts (also behind the scan proxy) unlock the CC back to the sender", async () => {
    for (const [action, choice, token, actAs] of [
      ["withdraw", "Allocation_Withdraw", alice.token, [alice.party]],
      ["cancel", "Allocation_Cancel", settler, [venue, alice.party, bob.party]],
    ] as const) {
      const before = await amuletTotal(s, alice);
      const cid = await allocateViaRegistry("/v0/scan-proxy");
      const ctx = await choiceContext(cid, action, "/api/validator/v0/scan-proxy");
      expect(ctx.status, ctx.text).toBe(200);
      expect(contextKeys(ctx.body)).toEqual(["amulet-rules", "expire-lock", "open-round"]);
      const exercise = { templateId: `${AL}:Allocation`, contractId: cid, choice, choiceArgument: { extraArgs: { context: ctx.body.choiceContextData, meta: { values: {} } } } };
      await submit(token, [...actAs], exercise, ctx.body.disclosedContracts);
      expect(await amuletTotal(s, alice)).toBe(before);
      expect(ofTemplate(await acs(s, alice), ALLOCATION)).toEqual([]);
    }
  });

  it("refuses bad requests with 400/404 and {error}", async () => {
    const bad = await s.json("POST", "/registry/allocation-instruction/v1/allocation-factory", { choiceArguments: { allocation: "nope" } }, null);
    expect([bad.status, bad.body.error]).toEqual([400, expect.stringMatching(/^Field `choiceArguments` does not contain a valid `AllocationFactory_Allocate`/)]);
    const missing = await s.json("POST", "/registry/allocation-instruction/v1/allocation-factory", {}, null);
    expect(missing.status).toBe(400);
    expect((await choiceContext("not-a-cid", "withdraw")).body).toEqual({ error: 'Invalid allocation id: "not-a-cid"' });
    const unknown = await choiceContext(`00${"ab".repeat(32)}`, "cancel");
    expect([unknown.status, unknown.body.error]).toEqual([404, `AmuletAllocation '00${"ab".repeat(32)}' not found.`]);
  });

  it("on gRPC: the factory and a choice context, refusals as status codes", async () => {
    const client = createClient(TokenStandardRegistryService, createGrpcTransport({ baseUrl: s.grpc }));
    const holdings = ofTemplate(await acs(s, alice), "Splice.Amulet:Amulet").map((c) => c.contractId);
    const factory = await client.getAllocationFactory({ choiceArguments: allocateArguments(holdings) as never, excludeDebugFields: true });
    expect(factory.factoryId).toMatch(/^00/);
    expect(factory.choiceContext?.disclosedContracts).toHaveLength(3);
    await expect(client.getAllocationWithdrawContext({ allocationId: `00${"ab".repeat(32)}` })).rejects.toMatchObject({ code: 5 });
    await expect(client.getAllocationTransferContext({ allocationId: "nope" })).rejects.toMatchObject({ code: 3 });
  });
});
