/**
 * What a wallet reads over the JSON Ledger API: CC holdings through the `Holding` interface
 * (Amulet and LockedAmulet views), pending offers through the `TransferInstruction` interface,
 * the factory's view, and the registry's disclosed contracts in the API's own blob format.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AmuletTransferInstruction, ExternalPartyAmuletRules } from "../../../../src/templates/splice/index.js";
import { getTransferFactory, getTransferInstructionChoiceContext, type DisclosedContract } from "../../../../src/registry/index.js";
import { startCc, type CcFixture } from "../../../support/cc-fixture.js";
import { ensureFactory, instructTransfer, registryDeps, standardTransfer } from "../../../support/token-standard-client.js";

const HOLDING = "#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding";
const INSTRUCTION = "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferInstruction";
const FACTORY = "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferFactory";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
  await ensureFactory(fx);
});
afterAll(() => fx.stop());

async function viewsOf(party: string, interfaceId: string, token: string): Promise<{ templateId: string; contractId: string; view: any; blob: string }[]> {
  const res = await fx.t.json(
    "POST",
    "/v2/state/active-contracts",
    {
      eventFormat: {
        filtersByParty: { [party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: true } } } }] } },
      },
      activeAtOffset: (await fx.t.json("GET", "/v2/state/ledger-end", undefined, token)).body.offset,
    },
    token,
  );
  expect(res.status).toBe(200);
  return res.body.map((e: any) => {
    const ev = e.contractEntry.JsActiveContract.createdEvent;
    return { templateId: ev.templateId, contractId: ev.contractId, view: ev.interfaceViews[0].viewValue, blob: ev.createdEventBlob };
  });
}

describe("token standard views over the JSON API", () => {
  it("shows Amulet and LockedAmulet as holdings and the offer as a transfer instruction", async () => {
    const alice = await fx.t.partyUser("alice");
    const bob = await fx.t.partyUser("bob");
    await fx.tap(alice.party, "100");
    const round = (await fx.openRound()).number;
    const transfer = standardTransfer(fx, alice.party, bob.party, "10", (await fx.holdings(alice.party)).map((h) => h.contractId));
    const { result } = await instructTransfer(fx, transfer);
    const instructionCid = (result.output.value as { transferInstructionCid: string }).transferInstructionCid;

    const holdings = await viewsOf(alice.party, HOLDING, alice.token);
    const meta = { values: { "amulet.splice.lfdecentralizedtrust.org/created-in-round": String(round), "amulet.splice.lfdecentralizedtrust.org/rate-per-round": "0.0038051800" } };
    const instrumentId = { admin: fx.dso, id: "Amulet" };
    expect(holdings.map((h) => h.view).sort((a, b) => (a.lock ? 1 : 0) - (b.lock ? 1 : 0))).toEqual([
      { owner: alice.party, instrumentId, amount: "89.9086756800", lock: null, meta },
      {
        owner: alice.party,
        instrumentId,
        amount: "10.0913243200",
        lock: { holders: [fx.dso], expiresAt: new Date(Number(transfer.executeBefore / 1000n)).toISOString().replace(".000Z", "Z"), expiresAfter: null, context: `transfer to '${bob.party}'` },
        meta,
      },
    ]);
    expect(holdings.map((h) => h.templateId.split(":").slice(1).join(":")).sort()).toEqual(["Splice.Amulet:Amulet", "Splice.Amulet:LockedAmulet"]);

    // The receiver sees the pending offer through the interface, in the released v1 shape.
    const [instr] = await viewsOf(bob.party, INSTRUCTION, bob.token);
    expect(instr.contractId).toBe(instructionCid);
    expect(instr.view).toMatchObject({
      originalInstructionCid: null,
      status: { tag: "TransferPendingReceiverAcceptance", value: {} },
      transfer: { sender: alice.party, receiver: bob.party, amount: "10.0000000000", instrumentId, meta: { values: {} } },
      meta: { values: {} },
    });
    const lockedCid = (await fx.client.contract(AmuletTransferInstruction, instructionCid))!.payload.lockedAmulet;
    expect(instr.view.transfer.inputHoldingCids).toEqual([lockedCid]);
  });

  it("discloses the factory with the same blob the Ledger API serves, and its view names the DSO", async () => {
    const alice = await fx.party("alice");
    const factory = await getTransferFactory(registryDeps(fx), {
      choiceArguments: { expectedAdmin: fx.dso, transfer: toJson(standardTransfer(fx, alice, alice, "1", [])), extraArgs: { context: {}, meta: {} } },
    });
    const [rules] = await fx.client.active(ExternalPartyAmuletRules, [fx.dso]);
    const disclosed = factory.choiceContext.disclosedContracts.find((d) => d.contractId === rules.contractId)!;
    expect(disclosed.templateId).toBe(rules.record.templateId);
    expect(disclosed.debugPayload).toEqual({ dso: fx.dso });
    expect(factory.choiceContext.disclosedContracts.map((d) => d.synchronizerId)).toEqual(
      factory.choiceContext.disclosedContracts.map(() => disclosed.synchronizerId),
    );
    const dsoUser = await fx.t.json("POST", "/v2/users", { user: { id: "dso-reader", primaryParty: fx.dso }, rights: [{ kind: { CanReadAs: { value: { party: fx.dso } } } }] });
    expect(dsoUser.status).toBe(200);
    const [viaApi] = await viewsOf(fx.dso, FACTORY, await fx.t.token("dso-reader"));
    expect(viaApi.view).toEqual({ admin: fx.dso, meta: { values: {} } });
    expect(viaApi.blob).toBe(disclosed.createdEventBlob);
    const excluded = await getTransferFactory(registryDeps(fx), { choiceArguments: { transfer: toJson(standardTransfer(fx, alice, alice, "1", [])) }, excludeDebugFields: true });
    expect(excluded.choiceContext.disclosedContracts.every((d) => d.debugPayload === undefined && d.debugCreatedAt === undefined)).toBe(true);
    expect(Object.keys(excluded.choiceContext.choiceContextData.values).sort()).toEqual(["amulet-rules", "open-round"]);
  });
});

describe("token standard over the JSON Ledger API", () => {
  it("offers and accepts with only /v2 commands, the registry's context and its disclosed blobs", async () => {
    const alice = await fx.t.partyUser("alice");
    const bob = await fx.t.partyUser("bob");
    await fx.tap(alice.party, "50");
    const transfer = toJson(standardTransfer(fx, alice.party, bob.party, "20", (await fx.holdings(alice.party)).map((h) => h.contractId)));
    const factory = await getTransferFactory(registryDeps(fx), { choiceArguments: { expectedAdmin: fx.dso, transfer, extraArgs: { context: {}, meta: {} } } });
    expect(factory.transferKind).toBe("offer");
    // Debug fields are for humans; the Ledger API takes the four real ones (as wallet SDKs send them).
    const asLedgerApi = (ds: readonly DisclosedContract[]) =>
      ds.map(({ templateId, contractId, createdEventBlob, synchronizerId }) => ({ templateId, contractId, createdEventBlob, synchronizerId }));
    const submit = (party: { party: string; token: string }, commandId: string, exercise: object, disclosed: readonly DisclosedContract[]) =>
      fx.t.json(
        "POST",
        "/v2/commands/submit-and-wait-for-transaction",
        {
          commands: { commands: [{ ExerciseCommand: exercise }], commandId, actAs: [party.party], disclosedContracts: asLedgerApi(disclosed) },
          transactionFormat: {
            eventFormat: { filtersByParty: { [party.party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } }, verbose: false },
            transactionShape: "TRANSACTION_SHAPE_LEDGER_EFFECTS",
          },
        },
        party.token,
      );
    const instructed = await submit(
      alice,
      "ts-offer",
      {
        templateId: FACTORY,
        contractId: factory.factoryId,
        choice: "TransferFactory_Transfer",
        choiceArgument: { expectedAdmin: fx.dso, transfer, extraArgs: { context: factory.choiceContext.choiceContextData, meta: { values: {} } } },
      },
      factory.choiceContext.disclosedContracts,
    );
    expect(instructed.status).toBe(200);
    const result = instructed.body.transaction.events[0].ExercisedEvent.exerciseResult;
    expect(result.output.tag).toBe("TransferInstructionResult_Pending");
    const cid = result.output.value.transferInstructionCid;
    const ctx = await getTransferInstructionChoiceContext(registryDeps(fx), cid, "accept", { excludeDebugFields: true });
    const accepted = await submit(
      bob,
      "ts-accept",
      { templateId: INSTRUCTION, contractId: cid, choice: "TransferInstruction_Accept", choiceArgument: { extraArgs: { context: ctx.choiceContextData, meta: { values: {} } } } },
      ctx.disclosedContracts,
    );
    expect(accepted.status).toBe(200);
    const done = accepted.body.transaction.events[0].ExercisedEvent;
    expect(done.interfaceId).toMatch(/:Splice\.Api\.Token\.TransferInstructionV1:TransferInstruction$/);
    expect(done.exerciseResult.output).toEqual({ tag: "TransferInstructionResult_Completed", value: { receiverHoldingCids: (await fx.holdings(bob.party)).map((h) => h.contractId) } });
    expect((await fx.holdings(bob.party)).map((h) => h.payload.amount.initialAmount.toString())).toEqual(["20.0000000000"]);
  });
});

function toJson(tr: ReturnType<typeof standardTransfer>) {
  const iso = (m: bigint) => new Date(Number(m / 1000n)).toISOString();
  return { ...tr, amount: tr.amount.toString(), requestedAt: iso(tr.requestedAt), executeBefore: iso(tr.executeBefore), meta: { values: {} } };
}
