/**
 * UpdatePartyDetails (`PATCH /v2/parties/{party}`, gRPC PartyManagementService.UpdatePartyDetails)
 * as Canton serves it: only the participant-local annotations change (merged: an empty value
 * removes a key), each change bumps the resource version, a stale one is
 * CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED, `is_local` may be named only with the party's own
 * value. Every refusal changes nothing.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartyManagementService } from "../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
/** Kept over a restart (the test server removes only a directory it made itself). */
const dir = mkdtempSync(join(tmpdir(), "ccwallet-update-party-"));
let admin: string;
let alice: { party: string; user: string; token: string };
let bob: { party: string; user: string; token: string };

beforeAll(async () => {
  s = await startTestServer({}, dir);
  admin = await s.adminToken();
  alice = await s.partyUser("up-alice");
  bob = await s.partyUser("up-bob");
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Details = { isLocal?: boolean; localMetadata?: { resourceVersion?: string; annotations?: Record<string, string> } };
const patch = (party: string, details: Details, paths: string[], token = admin) =>
  s.json("PATCH", `/v2/parties/${encodeURIComponent(party)}`, { partyDetails: { party, ...details }, updateMask: { paths, unknownFields: {} } }, token);
const read = async (party: string) => (await s.json("GET", `/v2/parties/${encodeURIComponent(party)}`, undefined, admin)).body.partyDetails[0];

describe("UpdatePartyDetails over JSON", () => {
  it("sets the annotations the mask names, bumps the resource version, and GetParties reads it back", async () => {
    const before = await read(alice.party);
    const r = await patch(alice.party, { localMetadata: { annotations: { team: "blue", tier: "1" } } }, ["local_metadata.annotations"]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.partyDetails).toMatchObject({ party: alice.party, isLocal: true, localMetadata: { annotations: { team: "blue", tier: "1" } } });
    expect(r.body.partyDetails.localMetadata.resourceVersion).not.toBe(before.localMetadata.resourceVersion);
    expect(await read(alice.party)).toEqual(r.body.partyDetails);
    const listed = await s.json("GET", "/v2/parties?pageSize=1000", undefined, admin);
    expect(listed.body.partyDetails.find((p: { party: string }) => p.party === alice.party)).toEqual(r.body.partyDetails);
  });

  it("merges annotations: an empty value removes a key; the prefix path works; a no-op still bumps the version, as Canton's", async () => {
    const merged = await patch(alice.party, { localMetadata: { annotations: { team: "", region: "eu" } } }, ["local_metadata"]);
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.partyDetails.localMetadata.annotations).toEqual({ tier: "1", region: "eu" });
    const same = await patch(alice.party, { isLocal: true }, ["local_metadata", "is_local", "party", "identity_provider_id"]);
    expect(same.status, same.text).toBe(200);
    expect(same.body.partyDetails.localMetadata).toEqual({ annotations: { tier: "1", region: "eu" }, resourceVersion: String(Number(merged.body.partyDetails.localMetadata.resourceVersion) + 1) });
  });

  it("checks the resource version when the request names one", async () => {
    const current = await read(alice.party);
    const stale = await patch(alice.party, { localMetadata: { resourceVersion: "999", annotations: { x: "1" } } }, ["local_metadata.annotations"]);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED", cause: `Update operation for party '${alice.party}' failed due to a concurrent update to the same party` });
    expect(await read(alice.party)).toEqual(current);
    const fresh = await patch(alice.party, { localMetadata: { resourceVersion: current.localMetadata.resourceVersion, annotations: { x: "1" } } }, ["local_metadata.annotations"]);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.partyDetails.localMetadata.annotations.x).toBe("1");
  });

  it("refuses bad masks, is_local changes, unknown parties, other callers and mismatched ids, changing nothing", async () => {
    const before = await read(alice.party);
    const invalid = (reason: string) => ({ code: "INVALID_PARTY_DETAILS_UPDATE_REQUEST", cause: `Update operation for party '${alice.party}' failed due to: ${reason}` });
    for (const [paths, details, reason] of [
      [[], {}, "The update mask contains no entries"],
      [["display_name"], {}, "The update path: 'display_name' points to an unknown field."],
      [["local_metadata.annotation"], {}, "The update path: 'local_metadata.annotation' points to an unknown field."],
      [["local_metadata", "local_metadata"], {}, "The update path: 'local_metadata' is duplicated."],
      [["is_local"], { isLocal: false }, "Update request attempted to modify not-modifiable 'is_local' attribute"],
    ] as const) {
      const r = await patch(alice.party, { ...details, localMetadata: { annotations: { y: "2" } } }, [...paths]);
      expect(r.status, JSON.stringify(paths)).toBe(400);
      expect(r.body).toMatchObject(invalid(reason));
    }
    const argument = (reason: string) => ({ code: "INVALID_ARGUMENT", cause: `The submitted request has invalid arguments: ${reason}` });
    for (const [details, reason] of [
      [{ identityProviderId: "idp-1" }, "Provided identity_provider_id idp-1 has not been found."],
      [{ localMetadata: { annotations: { "": "x" } } }, "Key name segment '' has invalid syntax"],
      [{ localMetadata: { annotations: { "a/b/c": "x" } } }, "Key 'a/b/c' contains more than one forward slash ('/') character"],
      [{ localMetadata: { annotations: { "-bad.example/k": "x" } } }, "Key prefix segment '-bad.example' has invalid syntax"],
      [{ localMetadata: { annotations: { ["k".repeat(64)]: "x" } } }, `Key name segment '${"k".repeat(50)}...' exceeds maximum length of 63 characters`],
      [{ localMetadata: { annotations: { blob: "x".repeat(300_000) } } }, "annotations from field 'party_details.local_metadata.annotations' are larger than the limit of 256kb"],
    ] as const) {
      const r = await patch(alice.party, details as Details, ["local_metadata"]);
      expect(r.status, reason).toBe(400);
      expect(r.body).toMatchObject(argument(reason));
    }
    const badVersion = await patch(alice.party, { localMetadata: { resourceVersion: "abc", annotations: { y: "2" } } }, ["local_metadata"]);
    expect([badVersion.status, badVersion.body.code]).toEqual([400, "INVALID_FIELD"]);
    const ghost = alice.party.replace(/^[^:]+/, "up-nobody");
    const unknown = await patch(ghost, { localMetadata: { annotations: { y: "2" } } }, ["local_metadata"]);
    expect([unknown.status, unknown.body.code, unknown.body.cause]).toEqual([404, "PARTY_NOT_FOUND", `Party: '${ghost}' was not found when updating a party record`]);
    expect((await patch(alice.party, { localMetadata: { annotations: { y: "2" } } }, ["local_metadata"], alice.token)).status).toBe(403);
    expect((await patch("not a party", { localMetadata: { annotations: { y: "2" } } }, ["local_metadata"])).status).toBe(400);
    const mismatch = await s.json("PATCH", `/v2/parties/${encodeURIComponent(alice.party)}`, { partyDetails: { party: bob.party, localMetadata: { annotations: { y: "2" } } }, updateMask: { paths: ["local_metadata"] } }, admin);
    expect(mismatch.status).toBe(400);
    // is_local is checked before the version, as Canton does.
    const both = await patch(alice.party, { isLocal: false, localMetadata: { resourceVersion: "999" } }, ["is_local"]);
    expect([both.status, both.body.code]).toEqual([400, "INVALID_PARTY_DETAILS_UPDATE_REQUEST"]);
    expect(await read(alice.party)).toEqual(before);
    expect((await read(bob.party)).localMetadata.annotations).toEqual({});
  });

  it("refuses an update whose merged annotations pass 256 KB, though each request is under it", async () => {
    const first = await patch(bob.party, { localMetadata: { annotations: { a: "x".repeat(200_000) } } }, ["local_metadata.annotations"]);
    expect(first.status, first.text).toBe(200);
    const second = await patch(bob.party, { localMetadata: { annotations: { b: "x".repeat(200_000) } } }, ["local_metadata.annotations"]);
    expect([second.status, second.body.code, second.body.cause]).toEqual([400, "MAX_PARTY_DETAILS_ANNOTATIONS_SIZE_EXCEEDED", `Maximum annotations size for party '${bob.party}' has been exceeded`]);
    expect(await read(bob.party)).toEqual(first.body.partyDetails);
    // Removing a key frees its room.
    const swapped = await patch(bob.party, { localMetadata: { annotations: { a: "", b: "x".repeat(200_000) } } }, ["local_metadata.annotations"]);
    expect(Object.keys(swapped.body.partyDetails.localMetadata.annotations)).toEqual(["b"]);
    expect((await patch(bob.party, { localMetadata: { annotations: { b: "" } } }, ["local_metadata.annotations"])).body.partyDetails.localMetadata.annotations).toEqual({});
  });

  it("refuses a new party whose annotations are over the limit, badly keyed or empty-valued, allocating nothing", async () => {
    for (const [annotations, reason] of [
      [{ blob: "x".repeat(300_000) }, "annotations from field 'local_metadata.annotations' are larger than the limit of 256kb"],
      [{ "not a key": "x" }, "Key name segment 'not a key' has invalid syntax"],
      [{ k: "" }, "The value of an annotation is empty for key: 'k'"],
    ] as const) {
      const r = await s.json("POST", "/v2/parties", { partyIdHint: "up-refused", localMetadata: { annotations } }, admin);
      expect([r.status, r.body.code, r.body.cause]).toEqual([400, "INVALID_ARGUMENT", `The submitted request has invalid arguments: ${reason}`]);
    }
    const listed = await s.json("GET", "/v2/parties?pageSize=1000", undefined, admin);
    expect(listed.body.partyDetails.some((p: { party: string }) => p.party.startsWith("up-refused::"))).toBe(false);
    const ok = await s.json("POST", "/v2/parties", { partyIdHint: "up-keyed", localMetadata: { annotations: { "ccwallet.example.com/team": "blue", "a.b-c_d": "1" } } }, admin);
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("UpdatePartyDetails over gRPC", () => {
  it("updates as the JSON form does, and survives a restart", async () => {
    const client = createClient(PartyManagementService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${admin}` };
    const r = await client.updatePartyDetails({ partyDetails: { party: bob.party, localMetadata: { annotations: { via: "grpc" } } }, updateMask: { paths: ["local_metadata.annotations"] } }, { headers });
    expect(r.partyDetails?.localMetadata?.annotations).toEqual({ via: "grpc" });
    await expect(client.updatePartyDetails({ partyDetails: { party: bob.party }, updateMask: { paths: [] } }, { headers })).rejects.toMatchObject({ code: 3 });
    await expect(client.updatePartyDetails({ updateMask: { paths: ["local_metadata"] } }, { headers })).rejects.toMatchObject({ code: 3 });
    await s.stop();
    s = await startTestServer({}, dir);
    const again = createClient(PartyManagementService, createGrpcTransport({ baseUrl: s.grpc }));
    const read = await again.getParties({ parties: [bob.party] }, { headers: { authorization: `Bearer ${await s.adminToken()}` } });
    expect(read.partyDetails[0].localMetadata?.annotations).toEqual({ via: "grpc" });
  });
});
