/**
 * Canton's rule for `commandId` on transactions read back: shown when the requesting parties
 * include a submitter (act_as) of the command, whichever events the reader sees; to a
 * party-wildcard reader always. Over JSON (update-by-id, /v2/updates) and gRPC (Connect).
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransactionShape } from "../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { UpdateService } from "../../gen/com/daml/ledger/api/v2/update_service_pb.js";
import { ACCOUNT, IOU, startTestServer, type TestServer } from "../support/test-server.js";

type Who = { party: string; user: string; token: string };

let s: TestServer;
let alice: Who;
let bob: Who;
let tx: { updateId: string; offset: number };
const COMMAND_ID = "iou-for-bob";

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
  bob = await s.partyUser("bob");
  // Alice submits an Iou that Bob observes.
  const r = await s.json(
    "POST",
    "/v2/commands/submit-and-wait-for-transaction",
    {
      commands: {
        commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: alice.party, owner: alice.party, currency: "CC", amount: "3", observers: [bob.party] } } }],
        commandId: COMMAND_ID,
        actAs: [alice.party],
      },
    },
    alice.token,
  );
  expect(r.status).toBe(200);
  tx = { updateId: r.body.transaction.updateId, offset: r.body.transaction.offset };
});
afterAll(() => s?.stop());

const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
/** A filter that matches nothing in the transaction (Accounts only). */
const accountsOnly = { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: ACCOUNT, includeCreatedEventBlob: false } } } }] };
const format = (eventFormat: unknown) => ({ includeTransactions: { eventFormat, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } });

/** The transaction as the admin reads it by id with this event format: its command id and witnesses. */
async function readById(eventFormat: unknown): Promise<{ commandId: string; witnesses: string[] }> {
  const r = await s.json("POST", "/v2/updates/update-by-id", { updateId: tx.updateId, updateFormat: format(eventFormat) });
  expect(r.status).toBe(200);
  const t = r.body.update.Transaction.value;
  return { commandId: t.commandId ?? "", witnesses: t.events.flatMap((e: any) => e.CreatedEvent.witnessParties) };
}

describe("commandId visibility (JSON)", () => {
  it("is shown when a submitter is among the requesting parties, even if only another party sees the events", async () => {
    // Alice is asked for but her filter matches nothing; Bob sees the event.
    expect(await readById({ filtersByParty: { [alice.party]: accountsOnly, [bob.party]: wildcard } })).toEqual({
      commandId: COMMAND_ID,
      witnesses: [bob.party],
    });
    expect(await readById({ filtersByParty: { [alice.party]: wildcard } })).toEqual({ commandId: COMMAND_ID, witnesses: [alice.party] });
  });

  it("is hidden from requesting parties that include no submitter", async () => {
    expect(await readById({ filtersByParty: { [bob.party]: wildcard } })).toEqual({ commandId: "", witnesses: [bob.party] });
    const asBob = await s.json(
      "POST",
      "/v2/updates?stream_idle_timeout_ms=200",
      { beginExclusive: tx.offset - 1, endInclusive: tx.offset, updateFormat: format({ filtersByParty: { [bob.party]: wildcard } }) },
      bob.token,
    );
    expect(asBob.body).toHaveLength(1);
    expect(asBob.body[0].update.Transaction.value.commandId ?? "").toBe("");
  });

  it("is shown to a party-wildcard reader", async () => {
    expect((await readById({ filtersForAnyParty: wildcard })).commandId).toBe(COMMAND_ID);
  });
});

describe("commandId visibility (gRPC)", () => {
  it("GetUpdateById follows the same rule", async () => {
    const client = createClient(UpdateService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${await s.adminToken()}` };
    const read = async (filtersByParty: Record<string, object>) => {
      const r = await client.getUpdateById(
        { updateId: tx.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty }, transactionShape: TransactionShape.LEDGER_EFFECTS } } },
        { headers },
      );
      return r.update.case === "transaction" ? r.update.value.commandId : undefined;
    };
    const nothing = { cumulative: [{ identifierFilter: { case: "templateFilter" as const, value: { templateId: { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Account", entityName: "Account" } } } }] };
    expect(await read({ [alice.party]: nothing, [bob.party]: {} })).toBe(COMMAND_ID);
    expect(await read({ [bob.party]: {} })).toBe("");
  });
});
