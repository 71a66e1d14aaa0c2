/**
 * A submission sees only what its readers (actAs, readAs) can see, inside choice bodies too, as
 * Canton looks contracts up for them: a contract of someone else's is CONTRACT_NOT_FOUND exactly
 * like one that never existed, so a body cannot tell whether it is active or who its stakeholders
 * are. A disclosed contract must be the contract as created (its created event blob), not an id;
 * one that is not discloses nothing.
 * A transaction format asked for with a submission reads as the parties it names (Canton's
 * transactionFormatClaims), checked before the submission commits. Found by hostile round 4: the
 * body's fetch answered an authorization error naming the stakeholders, a blob naming only the id
 * passed as a disclosure, and submit-and-wait-for-transaction projected for any party asked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newContractId } from "../../src/ledger/ids.js";
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

  it("a transaction's id does not give away the ids of the contracts it created", async () => {
    const r = await submit(bob, { CreateCommand: { templateId: IOU, createArguments: { issuer: bob.party, owner: bob.party, currency: "ID", amount: "1", observers: [] } } });
    expect(r.status, r.text).toBe(200);
    const { updateId, events } = r.body.transaction;
    expect(newContractId(updateId, 0)).not.toBe(events[0].CreatedEvent.contractId);
  });

  it("a key of a contract the submitter cannot see is not found, like a key nobody holds: no id, no existence", async () => {
    const ACCOUNT = "#ccwallet-demo:Ccwallet.Demo.Account:Account";
    const made = await submit(bob, { CreateCommand: { templateId: ACCOUNT, createArguments: { owner: bob.party, id: "savings", balance: "10" } } });
    expect(made.status, made.text).toBe(200);
    const byKey = (id: string) => submit(alice, { ExerciseByKeyCommand: { templateId: ACCOUNT, contractKey: { owner: bob.party, id }, choice: "Account_Deposit", choiceArgument: { amount: "1" } } });
    const held = await byKey("savings");
    const nobody = await byKey("checking");
    expect([held.status, held.body.code]).toEqual([404, "CONTRACT_KEY_NOT_FOUND"]);
    expect([nobody.status, nobody.body.code]).toEqual([404, "CONTRACT_KEY_NOT_FOUND"]);
    expect(held.text).not.toContain(made.body.transaction.events[0].CreatedEvent.contractId);
  });

  it("discloses nothing with a blob that is not the contract as created: not found, like a made-up id", async () => {
    const mine = (await iou(alice, "5")).contractId;
    const theirs = await iou(bob, "7");
    const unknown = `00${"cd".repeat(33)}`;
    const forge = (cid: string) => [{ contractId: cid, createdEventBlob: Buffer.from(JSON.stringify({ v: 1, contractId: cid, templateId: "x" })).toString("base64"), templateId: IOU }];
    const r = await compare(mine, theirs.contractId, { disclosedContracts: forge(theirs.contractId) });
    const made = await compare(mine, unknown, { disclosedContracts: forge(unknown) });
    expect([r.status, r.body.code]).toEqual([404, "CONTRACT_NOT_FOUND"]);
    expect([made.status, made.body.code]).toEqual([404, "CONTRACT_NOT_FOUND"]);
    // The blob as read from the ledger discloses it (and then the fetch's own authorization applies).
    const read = await s.json("POST", "/v2/events/events-by-contract-id", { contractId: theirs.contractId, eventFormat: { filtersByParty: { [bob.party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } }, verbose: false } }, bob.token);
    expect(read.status, read.text).toBe(200);
    const blob = read.body.created.createdEvent.createdEventBlob as string;
    const honest = await compare(mine, theirs.contractId, { disclosedContracts: [{ contractId: theirs.contractId, createdEventBlob: blob, templateId: IOU }] });
    expect([honest.status, honest.body.code]).toEqual([400, "DAML_AUTHORIZATION_ERROR"]);
  });

  it("discloses nothing with a blob rebuilt from all a non-stakeholder can know or guess: its id, contents and creation time", async () => {
    const mine = (await iou(alice, "5")).contractId;
    const theirs = await iou(bob, "4217");
    const read = await s.json("POST", "/v2/events/events-by-contract-id", { contractId: theirs.contractId, eventFormat: { filtersByParty: { [bob.party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } }, verbose: false } }, bob.token);
    expect(read.status, read.text).toBe(200);
    const honest = JSON.parse(Buffer.from(read.body.created.createdEvent.createdEventBlob, "base64").toString("utf8"));
    // Everything but the salt is the id, the template, what a guess of the contents gives, and
    // the creation time (the id's leading stamp): a guess that is right is still not a blob.
    expect(honest.salt).toMatch(/^[0-9a-f]{32}$/);
    const { salt, ...guessable } = honest;
    const guesses = [guessable, { ...guessable, salt: "0".repeat(32) }, { ...guessable, salt: salt.replace(/.$/, (c: string) => (c === "0" ? "1" : "0")) }];
    for (const guess of guesses) {
      const blob = Buffer.from(JSON.stringify(guess)).toString("base64");
      const r = await compare(mine, theirs.contractId, { disclosedContracts: [{ contractId: theirs.contractId, createdEventBlob: blob, templateId: IOU }] });
      expect([r.status, r.body.code]).toEqual([404, "CONTRACT_NOT_FOUND"]);
    }
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
