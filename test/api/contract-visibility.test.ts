/**
 * A submission sees only what its readers (actAs, readAs) can see, inside choice bodies too, as
 * Canton looks contracts up for them: a contract of someone else's is CONTRACT_NOT_FOUND exactly
 * like one that never existed, so a body cannot tell whether it is active or who its stakeholders
 * are. A disclosed contract must be the contract as created (its created event blob), not an id.
 * A transaction format asked for with a submission reads as the parties it names (Canton's
 * transactionFormatClaims), checked before the submission commits. Found by hostile round 4: the
 * body's fetch answered an authorization error naming the stakeholders, a blob naming only the id
 * passed as a disclosure, and submit-and-wait-for-transaction projected for any party asked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; token: string };
let bob: { party: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("vis-alice");
  bob = await s.partyUser("vis-bob");
});
afterAll(() => s?.stop());

let n = 0;
const submit = (who: { party: string; token: string }, command: unknown, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}) =>
  s.json("POST", "/v2/commands/submit-and-wait-for-transaction", { commands: { commands: [command], commandId: `vis-${++n}`, actAs: [who.party], ...extra }, ...top }, who.token);
const iou = async (who: { party: string; token: string }, amount: string) => {
  const r = await submit(who, { CreateCommand: { templateId: IOU, createArguments: { issuer: who.party, owner: who.party, currency: "CC", amount, observers: [] } } });
  expect(r.status, r.text).toBe(200);
  return r.body.transaction.events[0].CreatedEvent as { contractId: string; createdEventBlob?: string };
};
const compare = (mine: string, other: string, extra?: Record<string, unknown>) =>
  submit(alice, { ExerciseCommand: { templateId: IOU, contractId: mine, choice: "Iou_Compare", choiceArgument: { otherCid: other } } }, extra);

describe("contract visibility of a Ledger API submission", () => {
  it("a choice body's fetch of a contract the submitter cannot see is not found, like a contract that never existed", async () => {
    const mine = (await iou(alice, "5")).contractId;
    const theirs = (await iou(bob, "7")).contractId;
    const unknown = `00${"ab".repeat(33)}`;
    const hidden = await compare(mine, theirs);
    const missing = await compare(mine, unknown);
    expect([hidden.status, hidden.body.code]).toEqual([404, "CONTRACT_NOT_FOUND"]);
    expect([missing.status, missing.body.code]).toEqual([404, "CONTRACT_NOT_FOUND"]);
    expect(hidden.text).not.toContain(bob.party);
  });

  it("refuses a disclosed contract that is not the contract as created", async () => {
    const mine = (await iou(alice, "5")).contractId;
    const theirs = await iou(bob, "7");
    const forged = Buffer.from(JSON.stringify({ v: 1, contractId: theirs.contractId, templateId: "x" })).toString("base64");
    const r = await compare(mine, theirs.contractId, { disclosedContracts: [{ contractId: theirs.contractId, createdEventBlob: forged, templateId: IOU }] });
    expect([r.status, r.body.code]).toEqual([400, "INVALID_FIELD"]);
    expect(r.body.cause).toMatch(/created_event_blob/);
    // The blob as read from the ledger discloses it (and then the fetch's own authorization applies).
    const read = await s.json("POST", "/v2/events/events-by-contract-id", { contractId: theirs.contractId, eventFormat: { filtersByParty: { [bob.party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } }, verbose: false } }, bob.token);
    expect(read.status, read.text).toBe(200);
    const blob = read.body.created.createdEvent.createdEventBlob as string;
    const honest = await compare(mine, theirs.contractId, { disclosedContracts: [{ contractId: theirs.contractId, createdEventBlob: blob, templateId: IOU }] });
    expect([honest.status, honest.body.code]).toEqual([400, "DAML_AUTHORIZATION_ERROR"]);
  });

  it("a submission's transaction format reads only as parties the caller may read as, refused before it commits", async () => {
    const create = (amount: string) => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: alice.party, owner: alice.party, currency: "FMT", amount, observers: [] } } });
    const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] };
    const formats = [
      { eventFormat: { filtersByParty: { [bob.party]: wildcard } }, transactionShape: "TRANSACTION_SHAPE_LEDGER_EFFECTS" },
      { eventFormat: { filtersForAnyParty: wildcard }, transactionShape: "TRANSACTION_SHAPE_LEDGER_EFFECTS" },
    ];
    for (const [i, transactionFormat] of formats.entries()) {
      const r = await submit(alice, create(`${i + 1}`), {}, { transactionFormat });
      expect([i, r.status, r.body.code]).toEqual([i, 403, "PERMISSION_DENIED"]);
    }
    const mine = await submit(alice, create("9"), {}, { transactionFormat: { eventFormat: { filtersByParty: { [alice.party]: wildcard } }, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } });
    expect(mine.status, mine.text).toBe(200);
    // Only the allowed one committed.
    const end = (await s.json("GET", "/v2/state/ledger-end", undefined, alice.token)).body.offset;
    const acs = await s.json("POST", "/v2/state/active-contracts", { eventFormat: { filtersByParty: { [alice.party]: {} } }, activeAtOffset: end }, alice.token);
    const amounts = (acs.body as { contractEntry: { JsActiveContract: { createdEvent: { createArgument: { currency: string; amount: string } } } } }[])
      .map((e) => e.contractEntry.JsActiveContract.createdEvent.createArgument)
      .filter((a) => a.currency === "FMT")
      .map((a) => a.amount);
    expect(amounts).toEqual(["9.0000000000"]);
  });
});
