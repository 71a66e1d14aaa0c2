/**
 * The deprecated transaction lookups with a `transactionFormat` (what the wallet SDK sends), and
 * `/v2/updates/flats`, Canton's deprecated name of the update stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIou, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
let bob: { party: string; user: string; token: string };
let tx: { updateId: string; offset: number };

const formatOf = (party: string, shape = "TRANSACTION_SHAPE_ACS_DELTA") => ({
  eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } },
  transactionShape: shape,
});

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
  bob = await s.partyUser("bob");
  const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "12.5"), alice.token);
  expect(r.status).toBe(200);
  tx = { updateId: r.body.transaction.updateId, offset: r.body.transaction.offset };
});
afterAll(async () => s?.stop());

describe("transaction-by-id and transaction-by-offset with transactionFormat", () => {
  it("answers the transaction in the requested shape, without requestingParties", async () => {
    for (const [path, key] of [["/v2/updates/transaction-by-id", { updateId: tx.updateId }], ["/v2/updates/transaction-by-offset", { offset: tx.offset }]] as const) {
      const r = await s.json("POST", path, { ...key, transactionFormat: formatOf(alice.party, "TRANSACTION_SHAPE_LEDGER_EFFECTS") }, alice.token);
      expect(r.status, path).toBe(200);
      expect(r.body.transaction.updateId).toBe(tx.updateId);
      const created = r.body.transaction.events[0].CreatedEvent;
      expect(created.createArgument.amount).toBe("12.5000000000");
      expect(created.acsDelta).toBe(true);
    }
  });

  it("still takes the older requestingParties alone", async () => {
    const r = await s.json("POST", "/v2/updates/transaction-by-id", { updateId: tx.updateId, requestingParties: [alice.party] }, alice.token);
    expect(r.status).toBe(200);
    expect(r.body.transaction.offset).toBe(tx.offset);
  });

  it("refuses both forms at once, another party's format, and a transaction the format does not show", async () => {
    const both = await s.json("POST", "/v2/updates/transaction-by-id", { updateId: tx.updateId, requestingParties: [alice.party], transactionFormat: formatOf(alice.party) }, alice.token);
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: "INVALID_ARGUMENT", grpcCodeValue: 3 });
    const foreign = await s.json("POST", "/v2/updates/transaction-by-id", { updateId: tx.updateId, transactionFormat: formatOf(bob.party) }, alice.token);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("PERMISSION_DENIED");
    const unseen = await s.json("POST", "/v2/updates/transaction-by-offset", { offset: tx.offset, transactionFormat: formatOf(bob.party) }, bob.token);
    expect(unseen.status).toBe(404);
    expect(unseen.body.code).toBe("UPDATE_NOT_FOUND");
    const neither = await s.json("POST", "/v2/updates/transaction-by-id", { updateId: tx.updateId }, alice.token);
    expect(neither.status).toBe(400);
    expect(neither.body.code).toBe("MISSING_FIELD");
  });
});

describe("POST /v2/updates/flats", () => {
  it("serves the update stream like /v2/updates", async () => {
    const body = { updateFormat: { includeTransactions: formatOf(alice.party) }, beginExclusive: 0, endInclusive: tx.offset, verbose: false };
    const flats = await s.json("POST", "/v2/updates/flats", body, alice.token);
    const updates = await s.json("POST", "/v2/updates", body, alice.token);
    expect(flats.status).toBe(200);
    expect(flats.body).toEqual(updates.body);
    const ids = flats.body.map((u: any) => u.update.Transaction?.value.updateId).filter(Boolean);
    expect(ids).toContain(tx.updateId);
  });

  it("bad input gets the same answers as /v2/updates", async () => {
    const bad = await s.json("POST", "/v2/updates/flats", { updateFormat: { includeTransactions: formatOf(bob.party) }, beginExclusive: 0 }, alice.token);
    expect(bad.status).toBe(403);
    expect(bad.body.code).toBe("PERMISSION_DENIED");
    const garbage = await s.json("POST", "/v2/updates/flats", "{nope", alice.token);
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe("INVALID_ARGUMENT");
    expect(garbage.body.cause).toMatch(/^Invalid value for: body/);
  });
});
