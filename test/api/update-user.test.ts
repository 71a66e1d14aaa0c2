/**
 * UpdateUser (`PATCH /v2/users/{user-id}`, gRPC UserManagementService.UpdateUser) as Canton serves
 * it: the update mask names what changes (a field named exactly takes the request's value, a
 * prefix only what the request sets), annotations merge (an empty value removes a key), every
 * change bumps the resource version, a stale one is CONCURRENT_USER_UPDATE_DETECTED, and a
 * deactivated user's token is refused. Every refusal changes nothing.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserManagementService } from "../../gen/com/daml/ledger/api/v2/admin/user_management_service_pb.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let admin: string;
let alice: { party: string; user: string; token: string };
let bob: { party: string; user: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  alice = await s.partyUser("uu-alice");
  bob = await s.partyUser("uu-bob");
});
afterAll(() => s?.stop());

const patch = (id: string, user: Record<string, unknown>, paths: string[], token = admin) =>
  s.json("PATCH", `/v2/users/${encodeURIComponent(id)}`, { user: { id, ...user }, updateMask: { paths, unknownFields: {} } }, token);
const read = async (id: string) => (await s.json("GET", `/v2/users/${encodeURIComponent(id)}`, undefined, admin)).body.user;

describe("UpdateUser over JSON", () => {
  it("changes the primary party named by the mask, and bumps the resource version", async () => {
    const before = await read(alice.user);
    const r = await patch(alice.user, { primaryParty: bob.party, isDeactivated: true }, ["primary_party"]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.user).toMatchObject({ id: alice.user, primaryParty: bob.party, isDeactivated: false });
    expect(r.body.user.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
    expect(await read(alice.user)).toEqual(r.body.user);
    // Named exactly, the default value is taken too: "" clears the primary party.
    expect((await patch(alice.user, {}, ["primary_party"])).body.user.primaryParty).toBe("");
    expect((await patch(alice.user, { primaryParty: alice.party }, ["primary_party"])).body.user.primaryParty).toBe(alice.party);
  });

  it("merges annotations: an empty value removes a key; a prefix with nothing to set changes nothing", async () => {
    expect((await patch(alice.user, { metadata: { annotations: { team: "blue", tier: "1" } } }, ["metadata.annotations"])).body.user.metadata.annotations).toEqual({ team: "blue", tier: "1" });
    const merged = await patch(alice.user, { metadata: { annotations: { team: "", region: "eu" } } }, ["metadata"]);
    expect(merged.body.user.metadata.annotations).toEqual({ tier: "1", region: "eu" });
    const same = await patch(alice.user, { primaryParty: bob.party }, ["metadata"]);
    expect(same.body.user).toEqual(merged.body.user);
  });

  it("checks the resource version when the request names one", async () => {
    const current = await read(alice.user);
    const stale = await patch(alice.user, { isDeactivated: false, metadata: { resourceVersion: "999", annotations: { x: "1" } } }, ["metadata.annotations"]);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "CONCURRENT_USER_UPDATE_DETECTED", cause: `Update operation for user '${alice.user}' failed due to a concurrent update to the same user` });
    expect(await read(alice.user)).toEqual(current);
    const fresh = await patch(alice.user, { metadata: { resourceVersion: current.metadata.resourceVersion, annotations: { x: "1" } } }, ["metadata.annotations"]);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.user.metadata.annotations.x).toBe("1");
  });

  it("deactivates a user, whose token is then refused, and activates it again", async () => {
    expect((await patch(bob.user, { isDeactivated: true }, ["is_deactivated"])).body.user.isDeactivated).toBe(true);
    const refused = await s.json("GET", "/v2/authenticated-user", undefined, bob.token);
    expect(refused.status).toBe(403);
    expect((await patch(bob.user, { isDeactivated: false }, ["is_deactivated"])).body.user.isDeactivated).toBe(false);
    expect((await s.json("GET", "/v2/authenticated-user", undefined, bob.token)).status).toBe(200);
  });

  it("refuses bad masks, unknown users, other callers and mismatched ids, changing nothing", async () => {
    const before = await read(alice.user);
    const invalid = (reason: string) => ({ code: "INVALID_USER_UPDATE_REQUEST", cause: `Update operation for user id '${alice.user}' failed due to: ${reason}` });
    for (const [paths, reason] of [
      [[], "The update mask contains no entries"],
      [["rights"], "The update path: 'rights' points to an unknown field."],
      [["metadata.annotation"], "The update path: 'metadata.annotation' points to an unknown field."],
      [[""], "The update path: '' points to an unknown field."],
      [["primary_party", "primary_party"], "The update path: 'primary_party' is duplicated."],
    ] as const) {
      const r = await patch(alice.user, { primaryParty: bob.party }, [...paths]);
      expect(r.status, JSON.stringify(paths)).toBe(400);
      expect(r.body).toMatchObject(invalid(reason));
    }
    const unknown = await patch("uu-nobody", { isDeactivated: true }, ["is_deactivated"]);
    expect([unknown.status, unknown.body.code, unknown.body.cause]).toEqual([404, "USER_NOT_FOUND", 'updating user failed for unknown user "uu-nobody"']);
    expect((await patch(alice.user, { primaryParty: bob.party }, ["primary_party"], bob.token)).status).toBe(403);
    expect((await patch(alice.user, { primaryParty: "not a party" }, ["primary_party"])).status).toBe(400);
    const mismatch = await s.json("PATCH", `/v2/users/${alice.user}`, { user: { id: bob.user, primaryParty: bob.party }, updateMask: { paths: ["primary_party"] } }, admin);
    expect(mismatch.status).toBe(400);
    const big = await patch(alice.user, { metadata: { annotations: { blob: "x".repeat(300_000) } } }, ["metadata.annotations"]);
    expect([big.status, big.body.code, big.body.cause]).toEqual([400, "INVALID_ARGUMENT", "The submitted request has invalid arguments: annotations from field 'user.metadata.annotations' are larger than the limit of 256kb"]);
    const badKey = await patch(alice.user, { metadata: { annotations: { "a/b/c": "x" } } }, ["metadata.annotations"]);
    expect([badKey.status, badKey.body.code]).toEqual([400, "INVALID_ARGUMENT"]);
    const badVersion = await patch(alice.user, { metadata: { resourceVersion: "abc", annotations: { x: "1" } } }, ["metadata.annotations"]);
    expect([badVersion.status, badVersion.body.code]).toEqual([400, "INVALID_FIELD"]);
    const self = await s.json("PATCH", "/v2/users/participant_admin", { user: { id: "participant_admin", isDeactivated: true }, updateMask: { paths: ["is_deactivated"] } }, admin);
    expect([self.status, self.body.cause]).toEqual([400, expect.stringContaining("Requesting user cannot self-deactivate")]);
    expect(await read(alice.user)).toEqual(before);
  });
});

describe("UpdateUser over gRPC", () => {
  it("updates as the JSON form does", async () => {
    const client = createClient(UserManagementService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${admin}` };
    const r = await client.updateUser({ user: { id: bob.user, metadata: { annotations: { via: "grpc" } } }, updateMask: { paths: ["metadata.annotations"] } }, { headers });
    expect(r.user?.metadata?.annotations).toMatchObject({ via: "grpc" });
    await expect(client.updateUser({ user: { id: bob.user }, updateMask: { paths: [] } }, { headers })).rejects.toMatchObject({ code: 3 });
  });
});
