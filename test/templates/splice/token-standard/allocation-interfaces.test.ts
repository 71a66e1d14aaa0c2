/**
 * The token standard's allocation interfaces are known to the node (as on a Splice validator,
 * where their packages are vetted), also those no CC template implements (AllocationInstruction,
 * AllocationRequest): an interface filter on them is valid and, for a party without allocations,
 * matches nothing, while a misspelt interface is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../support/test-server.js";

const INTERFACES = [
  "#splice-api-token-allocation-v1:Splice.Api.Token.AllocationV1:Allocation",
  "#splice-api-token-allocation-instruction-v1:Splice.Api.Token.AllocationInstructionV1:AllocationFactory",
  "#splice-api-token-allocation-instruction-v1:Splice.Api.Token.AllocationInstructionV1:AllocationInstruction",
  "#splice-api-token-allocation-request-v1:Splice.Api.Token.AllocationRequestV1:AllocationRequest",
];

let s: TestServer;
let alice: { party: string; user: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alloc-alice");
});
afterAll(() => s?.stop());

const acs = (interfaceId: string, activeAtOffset: number) =>
  s.json(
    "POST",
    "/v2/state/active-contracts",
    { activeAtOffset, eventFormat: { filtersByParty: { [alice.party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } }, verbose: true } },
    alice.token,
  );

describe("allocation interfaces", () => {
  it("accepts filters on each and finds no contracts", async () => {
    const end = (await s.json("GET", "/v2/state/ledger-end")).body.offset as number;
    for (const id of INTERFACES) {
      const r = await acs(id, end);
      expect([r.status, r.body], `${id}: ${r.text}`).toEqual([200, []]);
    }
  });

  it("still refuses an interface the node does not know", async () => {
    const r = await acs("#splice-api-token-allocation-v1:Splice.Api.Token.AllocationV1:NoSuchInterface", 1);
    expect([r.status, r.body.code]).toEqual([404, "TEMPLATES_OR_INTERFACES_NOT_FOUND"]);
  });
});
