/**
 * EventQueryService.GetEventsByContractId on JSON (`/v2/events/events-by-contract-id`) and gRPC:
 * the create event of an active contract, create and archive events once it is archived, nothing
 * for parties that do not see it; bad input gets Canton's errors and changes nothing.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventQueryService } from "../../gen/com/daml/ledger/api/v2/event_query_service_pb.js";
import { createIou, IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
let bob: { party: string; user: string; token: string };
let active: { contractId: string; offset: number };
let archived: { contractId: string; createdAt: number; archivedAt: number; updateId: string };

const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
const formatFor = (party: string) => ({ filtersByParty: { [party]: wildcard }, verbose: true });
const byCid = (contractId: string, party: string, token: string) => s.json("POST", "/v2/events/events-by-contract-id", { contractId, eventFormat: formatFor(party) }, token);

/** Submits and returns the offset and the contract id of the first created event. */
async function create(amount: string): Promise<{ contractId: string; offset: number }> {
  const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", { commands: createIou(alice.party, amount).commands }, alice.token);
  expect(r.status, r.text).toBe(200);
  return { contractId: r.body.transaction.events[0].CreatedEvent.contractId, offset: r.body.transaction.offset };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("ev-alice");
  bob = await s.partyUser("ev-bob");
  active = await create("5");
  const gone = await create("6");
  const archive = { ExerciseCommand: { templateId: IOU, contractId: gone.contractId, choice: "Archive", choiceArgument: {} } };
  const r = await s.json("POST", "/v2/commands/submit-and-wait", { commands: [archive], commandId: "ev-archive", actAs: [alice.party] }, alice.token);
  expect(r.status, r.text).toBe(200);
  archived = { contractId: gone.contractId, createdAt: gone.offset, archivedAt: r.body.completionOffset, updateId: r.body.updateId };
});
afterAll(() => s?.stop());

describe("JSON /v2/events/events-by-contract-id", () => {
  it("answers the create event of an active contract", async () => {
    const r = await byCid(active.contractId, alice.party, alice.token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.archived).toBeUndefined();
    expect(r.body.created.synchronizerId).toBe(s.server.api.identity.synchronizerId);
    expect(r.body.created.createdEvent).toMatchObject({ contractId: active.contractId, offset: active.offset, signatories: [alice.party], witnessParties: [alice.party], createArgument: { amount: "5.0000000000" } });
  });

  it("answers create and archive events of an archived contract", async () => {
    const r = await byCid(archived.contractId, alice.party, alice.token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.created.createdEvent).toMatchObject({ contractId: archived.contractId, offset: archived.createdAt, createArgument: { amount: "6.0000000000" } });
    expect(r.body.archived.synchronizerId).toBe(s.server.api.identity.synchronizerId);
    expect(r.body.archived.archivedEvent).toMatchObject({ contractId: archived.contractId, offset: archived.archivedAt, witnessParties: [alice.party] });
  });

  it("hides contracts from parties that do not see them, and refuses bad input; nothing changes", async () => {
    const end = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
    const hidden = await byCid(active.contractId, bob.party, bob.token);
    expect([hidden.status, hidden.body.code]).toEqual([404, "CONTRACT_EVENTS_NOT_FOUND"]);
    const other = await byCid(active.contractId, bob.party, alice.token);
    expect([other.status, other.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    const unknown = await byCid("00" + "ab".repeat(32), alice.party, alice.token);
    expect([unknown.status, unknown.body.code]).toEqual([404, "CONTRACT_EVENTS_NOT_FOUND"]);
    const noFormat = await s.json("POST", "/v2/events/events-by-contract-id", { contractId: active.contractId }, alice.token);
    expect([noFormat.status, noFormat.body.code]).toEqual([400, "MISSING_FIELD"]);
    const malformed = await s.json("POST", "/v2/events/events-by-contract-id", "{\"contractId\":", alice.token);
    expect(malformed.status).toBe(400);
    const anonymous = await s.json("POST", "/v2/events/events-by-contract-id", { contractId: active.contractId, eventFormat: formatFor(alice.party) }, null);
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "UNAUTHENTICATED"]);
    expect((await s.json("GET", "/v2/state/ledger-end")).body.offset).toBe(end);
  });
});

describe("gRPC EventQueryService", () => {
  it("answers the same events, and NOT_FOUND for an unseen contract", async () => {
    const client = createClient(EventQueryService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${alice.token}` };
    const r = await client.getEventsByContractId({ contractId: archived.contractId, requestingParties: [alice.party] }, { headers });
    expect(r.created?.createdEvent?.contractId).toBe(archived.contractId);
    expect(r.archived?.archivedEvent?.offset).toBe(BigInt(archived.archivedAt));
    const err = await client.getEventsByContractId({ contractId: active.contractId, requestingParties: [bob.party] }, { headers: { authorization: `Bearer ${bob.token}` } }).catch((e: unknown) => e);
    expect(err instanceof ConnectError ? err.code : err).toBe(Code.NotFound);
  });
});
