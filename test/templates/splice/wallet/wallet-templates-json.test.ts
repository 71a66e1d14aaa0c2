/**
 * The wallet templates as a Splice client sees them: created and exercised over the JSON Ledger
 * API on a real socket by package-name template ids, with Splice's field names on the wire.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCc, type CcFixture } from "../../../support/cc-fixture.js";

let fx: CcFixture;
let alice: { party: string; token: string };
let bob: { party: string; token: string };
beforeAll(async () => {
  fx = await startCc();
  alice = await fx.t.partyUser("alice");
  bob = await fx.t.partyUser("bob");
});
afterAll(() => fx.stop());

const OFFER = "#splice-wallet:Splice.Wallet.TransferOffer:TransferOffer";
const submit = (party: string, token: string, command: object) =>
  fx.t.json(
    "POST",
    "/v2/commands/submit-and-wait-for-transaction",
    {
      commands: { commands: [command], commandId: `c-${Math.random().toString(36).slice(2)}`, actAs: [party] },
      transactionFormat: {
        eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } }, verbose: true },
        transactionShape: "TRANSACTION_SHAPE_LEDGER_EFFECTS",
      },
    },
    token,
  );

describe("wallet templates over the JSON Ledger API", () => {
  it("creates a USD transfer offer and accepts it by package-name template id", async () => {
    // Static time; Daml times print without fractional seconds when they have none.
    const expiresAt = new Date(Number(fx.clock.now() / 1000n) + 86_400_000).toISOString().replace(".000Z", "Z");
    const createArguments = {
      sender: alice.party,
      receiver: bob.party,
      dso: fx.dso,
      amount: { amount: "0.25", unit: "USDUnit" },
      description: "coffee",
      expiresAt,
      trackingId: "json-offer-1",
    };
    const created = await submit(alice.party, alice.token, { CreateCommand: { templateId: OFFER, createArguments } });
    expect(created.status).toBe(200);
    const event = created.body.transaction.events[0].CreatedEvent;
    expect(event.packageName).toBe("splice-wallet");
    expect(event.templateId).toMatch(/:Splice\.Wallet\.TransferOffer:TransferOffer$/);
    expect(event.createArgument).toEqual({ ...createArguments, amount: { amount: "0.2500000000", unit: "USDUnit" } });
    expect(event.signatories).toEqual([alice.party]);
    expect(event.observers).toEqual([bob.party]);

    const accept = { ExerciseCommand: { templateId: OFFER, contractId: event.contractId, choice: "TransferOffer_Accept", choiceArgument: {} } };
    const accepted = await submit(bob.party, bob.token, accept);
    expect(accepted.status).toBe(200);
    const [ex, acc] = accepted.body.transaction.events;
    expect(ex.ExercisedEvent).toMatchObject({ choice: "TransferOffer_Accept", consuming: true, actingParties: [bob.party] });
    expect(acc.CreatedEvent.templateId).toMatch(/:Splice\.Wallet\.TransferOffer:AcceptedTransferOffer$/);
    expect(ex.ExercisedEvent.exerciseResult).toEqual({ acceptedTransferOffer: acc.CreatedEvent.contractId });
    expect(acc.CreatedEvent.createArgument).toEqual({
      sender: alice.party,
      receiver: bob.party,
      dso: fx.dso,
      amount: { amount: "0.2500000000", unit: "USDUnit" },
      expiresAt,
      trackingId: "json-offer-1",
    });

    const again = await submit(bob.party, bob.token, accept);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("CONTRACT_NOT_FOUND");
  });

  it("refuses an unknown payment unit with the API's own error", async () => {
    const r = await submit(alice.party, alice.token, {
      CreateCommand: {
        templateId: OFFER,
        createArguments: { sender: alice.party, receiver: bob.party, dso: fx.dso, amount: { amount: "1", unit: "EURUnit" }, description: "", expiresAt: "2030-01-01T00:00:00Z", trackingId: "t" },
      },
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain("EURUnit");
  });
});
