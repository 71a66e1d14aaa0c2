/**
 * ContractService.GetContract on JSON (`POST /v2/contracts/contract-by-id`) and gRPC: the create
 * event of an active or archived contract for a querying stakeholder (or for any party, with no
 * querying parties), CONTRACT_PAYLOAD_NOT_FOUND for unknown and invisible contracts alike.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContractService } from "../../gen/com/daml/ledger/api/v2/contract_service_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { createIou, IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
let bob: { party: string; user: string; token: string };
let active: string;
let archived: string;
const UNKNOWN = `00${"ab".repeat(32)}`;

async function create(amount: string): Promise<string> {
  const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", { commands: createIou(alice.party, amount).commands }, alice.token);
  expect(r.status, r.text).toBe(200);
  return r.body.transaction.events[0].CreatedEvent.contractId;
}

const byId = (contractId: string, queryingParties: string[] | undefined, token?: string) =>
  s.json("POST", "/v2/contracts/contract-by-id", { contractId, ...(queryingParties ? { queryingParties } : {}) }, token);

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("cbi-alice");
  bob = await s.partyUser("cbi-bob");
  active = await create("7");
  archived = await create("8");
  const archive = { ExerciseCommand: { templateId: IOU, contractId: archived, choice: "Archive", choiceArgument: {} } };
  const r = await s.json("POST", "/v2/commands/submit-and-wait", { commands: [archive], commandId: "cbi-archive", actAs: [alice.party] }, alice.token);
  expect(r.status, r.text).toBe(200);
});
afterAll(() => s?.stop());

describe("JSON /v2/contracts/contract-by-id", () => {
  it("answers an active contract's create event to a querying stakeholder, witnesses the querying stakeholders", async () => {
    const r = await byId(active, [alice.party], alice.token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.createdEvent).toMatchObject({ contractId: active, signatories: [alice.party], witnessParties: [alice.party], createArgument: { amount: "7.0000000000" } });
    expect(r.body.createdEvent.createdEventBlob).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(r.body.createdEvent.offset).toBe(0);
  });

  it("answers an archived contract too, and any contract to the admin with no querying parties", async () => {
    expect((await byId(archived, [alice.party], alice.token)).body.createdEvent).toMatchObject({ contractId: archived, createArgument: { amount: "8.0000000000" } });
    const any = await byId(active, undefined);
    expect(any.status, any.text).toBe(200);
    expect(any.body.createdEvent.contractId).toBe(active);
  });

  it("CONTRACT_PAYLOAD_NOT_FOUND (404) for an unknown contract and for querying parties that are no stakeholders", async () => {
    for (const r of [await byId(UNKNOWN, [alice.party], alice.token), await byId(active, [bob.party], bob.token)]) {
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ code: "CONTRACT_PAYLOAD_NOT_FOUND", cause: "Contract payload not found, or not visible." });
    }
  });

  it("refuses querying parties the user may not read as, and no querying parties for a party user (403)", async () => {
    expect((await byId(active, [alice.party], bob.token)).status).toBe(403);
    expect((await byId(active, [], alice.token)).status).toBe(403);
  });
});

describe("gRPC ContractService", () => {
  it("GetContract answers like the JSON route and refuses unknown contracts with NOT_FOUND", async () => {
    const client = createClient(ContractService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${alice.token}` };
    const got = await client.getContract({ contractId: active, queryingParties: [alice.party] }, { headers });
    expect(got.createdEvent?.contractId).toBe(active);
    expect(got.createdEvent?.witnessParties).toEqual([alice.party]);
    const missing = (await client.getContract({ contractId: UNKNOWN, queryingParties: [alice.party] }, { headers }).catch((e: unknown) => e)) as ConnectError;
    expect(missing.code).toBe(Code.NotFound);
    expect(missing.findDetails(ErrorInfoSchema)[0].reason).toBe("CONTRACT_PAYLOAD_NOT_FOUND");
  });
});
