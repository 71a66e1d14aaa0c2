/** StateService's hosting and pruning reads, on the JSON API and gRPC (Connect client). */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ParticipantPermission, StateService } from "../../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { startTestServer, type TestServer } from "../../../support/test-server.js";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

describe("connected synchronizers and pruned offsets", () => {
  it("answers the one synchronizer for a party hosted here, none for a party hosted elsewhere", async () => {
    const alice = await s.partyUser("alice");
    const synchronizerId = s.server.api.identity.synchronizerId;
    const own = await s.json("GET", `/v2/state/connected-synchronizers?party=${encodeURIComponent(alice.party)}`, undefined, alice.token);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ connectedSynchronizers: [{ synchronizerAlias: "global", synchronizerId, permission: "PARTICIPANT_PERMISSION_SUBMISSION" }] });
    const ghost = await s.json("GET", `/v2/state/connected-synchronizers?party=${encodeURIComponent("ghost::1220" + "00".repeat(32))}`);
    expect(ghost.body).toEqual({ connectedSynchronizers: [] });
    const otherParticipant = await s.json("GET", "/v2/state/connected-synchronizers?participantId=PAR::other::1220" + "11".repeat(32));
    expect(otherParticipant.body).toEqual({ connectedSynchronizers: [] });

    const client = createClient(StateService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${alice.token}` };
    const res = await client.getConnectedSynchronizers({ party: alice.party }, { headers });
    expect(res.connectedSynchronizers.map((c) => [c.synchronizerAlias, c.synchronizerId, c.permission])).toEqual([["global", synchronizerId, ParticipantPermission.SUBMISSION]]);
    const pruned = await client.getLatestPrunedOffsets({}, { headers });
    expect([pruned.participantPrunedUpToInclusive, pruned.allDivulgedContractsPrunedUpToInclusive]).toEqual([0n, 0n]);
    expect((await s.json("GET", "/v2/state/latest-pruned-offsets")).body).toEqual({ participantPrunedUpToInclusive: 0, allDivulgedContractsPrunedUpToInclusive: 0 });
  });
});
