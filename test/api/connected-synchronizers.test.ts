/** StateService.GetConnectedSynchronizers and GetLatestPrunedOffsets over JSON and gRPC. */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ParticipantPermission, StateService } from "../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
let bob: { party: string; user: string; token: string };
let synchronizerId: string;

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
  bob = await s.partyUser("bob");
  synchronizerId = await idOfSynchronizer();
});
afterAll(async () => s?.stop());

/** The synchronizer id the node answers with. */
async function idOfSynchronizer(): Promise<string> {
  const r = await s.json("GET", "/v2/state/connected-synchronizers");
  return r.body.connectedSynchronizers[0].synchronizerId as string;
}

const participantId = async () => (await s.json("GET", "/v2/parties/participant-id")).body.participantId as string;

describe("GET /v2/state/connected-synchronizers", () => {
  it("answers the one synchronizer, with the submission permission, to any user", async () => {
    const r = await s.json("GET", "/v2/state/connected-synchronizers", undefined, alice.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      connectedSynchronizers: [{ synchronizerAlias: "global", synchronizerId, permission: "PARTICIPANT_PERMISSION_SUBMISSION" }],
    });
    expect(synchronizerId).toMatch(/^[a-z-]+::1220[0-9a-f]{64}$/);
  });

  it("filters by hosted party and by participant id", async () => {
    const hosted = await s.json("GET", `/v2/state/connected-synchronizers?party=${encodeURIComponent(alice.party)}`, undefined, alice.token);
    expect(hosted.body.connectedSynchronizers).toHaveLength(1);
    const ours = await s.json("GET", `/v2/state/connected-synchronizers?participantId=${encodeURIComponent(await participantId())}`);
    expect(ours.body.connectedSynchronizers).toHaveLength(1);
    const other = await s.json("GET", "/v2/state/connected-synchronizers?participantId=PAR::other::1220ab");
    expect(other.body).toEqual({ connectedSynchronizers: [] });
    const unhosted = await s.json("GET", `/v2/state/connected-synchronizers?party=${encodeURIComponent("nobody::1220" + "ab".repeat(32))}`);
    expect(unhosted.status).toBe(200);
    expect(unhosted.body).toEqual({ connectedSynchronizers: [] });
  });

  it("refuses another party's hosting to a user without rights, a malformed party and no token", async () => {
    const foreign = await s.json("GET", `/v2/state/connected-synchronizers?party=${encodeURIComponent(bob.party)}`, undefined, alice.token);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: "PERMISSION_DENIED", grpcCodeValue: 7 });
    const bad = await s.json("GET", "/v2/state/connected-synchronizers?party=not%20a%20party", undefined, alice.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "INVALID_FIELD", context: { field_name: "party" } });
    const anon = await s.json("GET", "/v2/state/connected-synchronizers", undefined, null);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe("UNAUTHENTICATED");
  });
});

describe("GET /v2/state/latest-pruned-offsets", () => {
  it("reports that nothing is pruned (Canton's zeros are omitted in JSON)", async () => {
    const r = await s.json("GET", "/v2/state/latest-pruned-offsets", undefined, alice.token);
    expect(r.status).toBe(200);
    expect(r.body.participantPrunedUpToInclusive ?? 0).toBe(0);
    expect(r.body.allDivulgedContractsPrunedUpToInclusive ?? 0).toBe(0);
    expect((await s.json("GET", "/v2/state/latest-pruned-offsets", undefined, null)).status).toBe(401);
  });
});

describe("gRPC StateService", () => {
  const client = () => createClient(StateService, createGrpcTransport({ baseUrl: s.grpc }));

  it("GetConnectedSynchronizers and GetLatestPrunedOffsets answer like the JSON routes", async () => {
    const headers = { authorization: `Bearer ${alice.token}` };
    const r = await client().getConnectedSynchronizers({ party: alice.party }, { headers });
    expect(r.connectedSynchronizers.map((c) => [c.synchronizerAlias, c.synchronizerId, c.permission])).toEqual([
      ["global", synchronizerId, ParticipantPermission.SUBMISSION],
    ]);
    const pruned = await client().getLatestPrunedOffsets({}, { headers });
    expect([pruned.participantPrunedUpToInclusive, pruned.allDivulgedContractsPrunedUpToInclusive]).toEqual([0n, 0n]);
  });

  it("bad input gets Canton's status with error details", async () => {
    const headers = { authorization: `Bearer ${alice.token}` };
    const err = await client()
      .getConnectedSynchronizers({ party: "a/b::c" }, { headers })
      .catch((e: unknown) => e as ConnectError);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    expect((err as ConnectError).findDetails(ErrorInfoSchema)[0].reason).toBe("INVALID_FIELD");
    const denied = await client()
      .getConnectedSynchronizers({ party: bob.party }, { headers })
      .catch((e: unknown) => e as ConnectError);
    expect((denied as ConnectError).code).toBe(Code.PermissionDenied);
  });
});
