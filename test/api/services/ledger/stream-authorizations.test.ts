/** StreamAuthorizations: one read per streaming user per tick, however many streams it has open. */
import { describe, expect, it } from "vitest";
import type { LedgerError } from "../../../../src/ledger/errors.js";
import type { UserRecord } from "../../../../src/ledger/records.js";
import { StreamAuthorizations, USER_RIGHTS_CHECK_INTERVAL_MS } from "../../../../src/api/services/ledger/stream-authorizations.js";

const user = (id: string, party: string): UserRecord =>
  ({ id, primaryParty: party, isDeactivated: false, rights: [{ kind: "CanActAs", party }], metadata: { resourceVersion: "0", annotations: {} }, identityProviderId: "" }) as unknown as UserRecord;
const tick = () => new Promise((r) => setTimeout(r, USER_RIGHTS_CHECK_INTERVAL_MS + 150));

describe("StreamAuthorizations", () => {
  it("reads each streaming user once per tick, revokes on a change by value, and stops its timer when nothing is watched", async () => {
    const users = new Map([["u1", user("u1", "p1")], ["u2", user("u2", "p2")]]);
    const reads: string[] = [];
    const auth = new StreamAuthorizations(async (id) => {
      reads.push(id);
      const u = users.get(id);
      return u && { ...u, rights: u.rights.map((r) => ({ ...r })) }; // fresh objects, as a document store returns
    });
    const revoked: (LedgerError | undefined)[] = Array.from({ length: 51 }, () => undefined);
    const unwatch = Array.from({ length: 50 }, (_, i) => auth.watch(users.get("u1")!, undefined, (e) => (revoked[i] = e)));
    unwatch.push(auth.watch(users.get("u2")!, undefined, (e) => (revoked[50] = e)));
    await tick();
    expect(reads.sort()).toEqual(["u1", "u2"]);
    expect(revoked.every((e) => e === undefined)).toBe(true);
    users.set("u2", { ...users.get("u2")!, isDeactivated: true });
    await tick();
    expect(revoked[50]?.code).toBe("STALE_STREAM_AUTHORIZATION");
    expect(revoked.slice(0, 50).every((e) => e === undefined)).toBe(true);
    for (const u of unwatch) u();
    reads.length = 0;
    await tick();
    expect(reads).toEqual([]);
  });

  it("revokes a stream whose token has expired, with Canton's text", async () => {
    const auth = new StreamAuthorizations(async () => user("u", "p"));
    let error: LedgerError | undefined;
    const stop = auth.watch(user("u", "p"), Math.floor(Date.now() / 1000), (e) => (error = e));
    await tick();
    stop();
    expect(error?.code).toBe("ACCESS_TOKEN_EXPIRED");
    expect(error?.message).toMatch(/Claims were valid until \S+, current time is \S+/);
  });
});
