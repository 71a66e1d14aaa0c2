/**
 * Writes outside transactions whose outcome is unknown: they answer REQUEST_TIME_OUT, and a
 * retry through this instance recognizes its own write. The collection double keeps the primary's
 * documents and fails a write the way the driver reports it: a write concern timeout after the
 * write was applied (the manual: MongoDB "does not undo successful data modifications"), or a
 * network error before it was. What a real server answers is for the conformance suite.
 */
import { MongoNetworkError, MongoServerError, MongoServerSelectionError, MongoWriteConcernError } from "mongodb";
import type { ClientSession } from "mongodb";
import { describe, expect, it } from "vitest";
import { Category, GrpcCode, LedgerError } from "../../src/ledger/errors.js";
import { encodeRecord } from "../../src/store/codec.js";
import type { InSession } from "../../src/store/mongodb/causal-clock.js";
import { MongoPackages } from "../../src/store/mongodb/packages.js";
import { SingleWrites, type RecordCollection } from "../../src/store/mongodb/single-writes.js";
import { UncertainWrites, writeOutcomeUnknown, writeTimedOut } from "../../src/store/mongodb/write-outcome.js";

const wtimeout = () =>
  new MongoWriteConcernError({
    ok: 1,
    n: 1,
    writeConcernError: { code: 64, codeName: "WriteConcernTimeout", errmsg: "waiting for replication timed out", errInfo: { wtimeout: true } },
  });
const networkError = () => new MongoNetworkError("connection 3 to 10.0.0.1:27017 closed");
const duplicateKey = () => new MongoServerError({ message: "E11000 duplicate key error", code: 11000, codeName: "DuplicateKey" });

/** How the next write fails: applied and then its write concern times out, or lost before it reached the server. */
type Failure = "timeout-after-applying" | "network-before-applying" | Error;

/** A record collection on one primary; `fail` scripts the outcome of the next writes. */
function records(name = "parties") {
  const docs = new Map<string, string>();
  const failures: Failure[] = [];
  const write = <T>(apply: () => T): T => {
    const failure = failures.shift();
    if (failure === "network-before-applying") throw networkError();
    if (failure instanceof Error) throw failure;
    const result = apply();
    if (failure === "timeout-after-applying") throw wtimeout();
    return result;
  };
  const collection = {
    collectionName: name,
    async updateOne(filter: { _id: string }, update: { $setOnInsert: { record: string } }) {
      return write(() => {
        if (docs.has(filter._id)) return { upsertedCount: 0, matchedCount: 1 };
        docs.set(filter._id, update.$setOnInsert.record);
        return { upsertedCount: 1, matchedCount: 0 };
      });
    },
    async findOne(filter: { _id: string }) {
      const record = docs.get(filter._id);
      return record === undefined ? null : { _id: filter._id, record };
    },
    async deleteOne(filter: { _id: string }) {
      return write(() => ({ deletedCount: docs.delete(filter._id) ? 1 : 0 }));
    },
  };
  return { collection: collection as unknown as RecordCollection, docs, fail: (...f: Failure[]) => failures.push(...f) };
}

const inSession: InSession = (fn) => fn({} as ClientSession);
const party = (name: string, annotations: Record<string, string> = {}) => ({ party: `${name}::1220ab`, isLocal: true, localMetadata: { resourceVersion: "0", annotations }, identityProviderId: "" });

async function refusal(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => ({ resolved: v }),
    (e: unknown) => e,
  );
}

describe("writeOutcomeUnknown", () => {
  it("is true for a write concern error (applied, not confirmed) and for a lost connection, false for a refusal", () => {
    expect(writeOutcomeUnknown(wtimeout())).toBe(true);
    expect(writeOutcomeUnknown(networkError())).toBe(true);
    // After a first attempt that may have been applied, the driver raises its retry's error: a
    // failed server selection is no proof that nothing landed.
    expect(writeOutcomeUnknown(new MongoServerSelectionError("Server selection timed out after 30000 ms", {} as never))).toBe(true);
    expect(writeOutcomeUnknown(duplicateKey())).toBe(false);
    expect(writeOutcomeUnknown(new Error("a bug"))).toBe(false);
  });

  it("answers Canton's REQUEST_TIME_OUT: no definite answer, DEADLINE_EXCEEDED, retryable", () => {
    const cause = wtimeout();
    const e = writeTimedOut("party alice::1220ab", cause);
    expect(e).toBeInstanceOf(LedgerError);
    expect({ code: e.code, category: e.category, grpc: e.grpcCode, definite: e.definiteAnswer }).toEqual({
      code: "REQUEST_TIME_OUT",
      category: Category.DeadlineExceededRequestStateUnknown,
      grpc: GrpcCode.DEADLINE_EXCEEDED,
      definite: false,
    });
    expect(e.message).toBe(
      "The write of party alice::1220ab was not confirmed by a majority of the database (WriteConcernTimeout: waiting for replication timed out); it may or may not have been applied. Retry the request",
    );
    expect(e.cause).toBe(cause);
  });
});

describe("SingleWrites.insertIfAbsent", () => {
  it("a create whose write concern timed out answers REQUEST_TIME_OUT; its retry finds its own record and succeeds; a third is a duplicate", async () => {
    const r = records();
    const writes = new SingleWrites(inSession);
    r.fail("timeout-after-applying");
    const first = await refusal(writes.insertIfAbsent(r.collection, "alice::1220ab", party("alice"), "party"));
    expect(first).toBeInstanceOf(LedgerError);
    expect((first as LedgerError).code).toBe("REQUEST_TIME_OUT");
    expect(r.docs.get("alice::1220ab")).toBe(encodeRecord(party("alice")));
    // Without the memory this answered false: ALREADY_EXISTS for the caller's own party.
    expect(await writes.insertIfAbsent(r.collection, "alice::1220ab", party("alice"), "party")).toBe(true);
    expect(await writes.insertIfAbsent(r.collection, "alice::1220ab", party("alice"), "party")).toBe(false);
  });

  it("a create lost before the server: its retry inserts", async () => {
    const r = records();
    const writes = new SingleWrites(inSession);
    r.fail("network-before-applying");
    expect(((await refusal(writes.insertIfAbsent(r.collection, "bob::1220ab", party("bob"), "party"))) as LedgerError).code).toBe("REQUEST_TIME_OUT");
    expect(r.docs.has("bob::1220ab")).toBe(false);
    expect(await writes.insertIfAbsent(r.collection, "bob::1220ab", party("bob"), "party")).toBe(true);
    expect(await writes.insertIfAbsent(r.collection, "bob::1220ab", party("bob"), "party")).toBe(false);
  });

  it("an identical record nobody failed to write is a duplicate, as Canton answers a second allocation", async () => {
    const r = records();
    const writes = new SingleWrites(inSession);
    expect(await writes.insertIfAbsent(r.collection, "carol::1220ab", party("carol"), "party")).toBe(true);
    expect(await writes.insertIfAbsent(r.collection, "carol::1220ab", party("carol"), "party")).toBe(false);
  });

  it("a different record found after an uncertain write is someone else's: a duplicate", async () => {
    const r = records();
    const writes = new SingleWrites(inSession);
    r.docs.set("dave::1220ab", encodeRecord(party("dave", { by: "another request" })));
    r.fail("network-before-applying");
    await refusal(writes.insertIfAbsent(r.collection, "dave::1220ab", party("dave"), "party"));
    expect(await writes.insertIfAbsent(r.collection, "dave::1220ab", party("dave"), "party")).toBe(false);
  });

  it("keys by collection: an uncertain party write says nothing about a user of the same id", async () => {
    const parties = records("parties");
    const users = records("users");
    const writes = new SingleWrites(inSession);
    parties.fail("timeout-after-applying");
    await refusal(writes.insertIfAbsent(parties.collection, "erin", { id: "erin" }, "party"));
    users.docs.set("erin", encodeRecord({ id: "erin" }));
    expect(await writes.insertIfAbsent(users.collection, "erin", { id: "erin" }, "user")).toBe(false);
    expect(await writes.insertIfAbsent(parties.collection, "erin", { id: "erin" }, "party")).toBe(true);
  });

  it("passes a definite refusal through unchanged and remembers nothing", async () => {
    const r = records();
    const writes = new SingleWrites(inSession);
    const refused = duplicateKey();
    r.fail(refused);
    expect(await refusal(writes.insertIfAbsent(r.collection, "frank::1220ab", party("frank"), "party"))).toBe(refused);
    r.docs.set("frank::1220ab", encodeRecord(party("frank")));
    expect(await writes.insertIfAbsent(r.collection, "frank::1220ab", party("frank"), "party")).toBe(false);
  });
});

describe("SingleWrites.deleteById", () => {
  it("a delete whose write concern timed out: its retry finds nothing and succeeds; a third is not found", async () => {
    const r = records("users");
    const writes = new SingleWrites(inSession);
    r.docs.set("grace", encodeRecord({ id: "grace" }));
    r.fail("timeout-after-applying");
    expect(((await refusal(writes.deleteById(r.collection, "grace", "user"))) as LedgerError).code).toBe("REQUEST_TIME_OUT");
    expect(r.docs.has("grace")).toBe(false);
    // Without the memory this answered false: USER_NOT_FOUND for the caller's own delete.
    expect(await writes.deleteById(r.collection, "grace", "user")).toBe(true);
    expect(await writes.deleteById(r.collection, "grace", "user")).toBe(false);
  });

  it("a delete lost before the server: its retry deletes", async () => {
    const r = records("users");
    const writes = new SingleWrites(inSession);
    r.docs.set("heidi", encodeRecord({ id: "heidi" }));
    r.fail("network-before-applying");
    await refusal(writes.deleteById(r.collection, "heidi", "user"));
    expect(r.docs.has("heidi")).toBe(true);
    expect(await writes.deleteById(r.collection, "heidi", "user")).toBe(true);
    expect(await writes.deleteById(r.collection, "heidi", "user")).toBe(false);
  });
});

describe("SingleWrites.idempotent and packages", () => {
  it("answers REQUEST_TIME_OUT for an unknown outcome and passes anything else through", async () => {
    const writes = new SingleWrites(inSession);
    const timedOut = await refusal(writes.idempotent("setting namespace", async () => Promise.reject(wtimeout())));
    expect((timedOut as LedgerError).code).toBe("REQUEST_TIME_OUT");
    expect((timedOut as LedgerError).message).toContain("The write of setting namespace was not confirmed");
    const refused = duplicateKey();
    expect(await refusal(writes.idempotent("setting namespace", async () => Promise.reject(refused)))).toBe(refused);
    expect(await writes.idempotent("setting namespace", async () => "value")).toBe("value");
  });

  it("a package upload whose write concern timed out answers REQUEST_TIME_OUT (a retry's upsert finds the package, which uploads ignore)", async () => {
    const packagesCol = { updateOne: async () => Promise.reject(wtimeout()) };
    const writes = new SingleWrites(inSession);
    const packages = new MongoPackages(packagesCol as never, inSession, writes);
    const upload = await refusal(packages.addPackage({ packageId: "ab".repeat(32), payload: Uint8Array.of(1), name: "p", version: "1.0.0", knownSince: 1n }));
    expect((upload as LedgerError).code).toBe("REQUEST_TIME_OUT");
    expect((upload as LedgerError).message).toContain(`package ${"ab".repeat(32)}`);
  });
});

describe("UncertainWrites", () => {
  it("settles a key once, true only for the state the uncertain write would have left", () => {
    const u = new UncertainWrites();
    u.remember("parties/a", "R");
    expect(u.has("parties/a")).toBe(true);
    expect(u.settle("parties/a", "R")).toBe(true);
    expect(u.has("parties/a")).toBe(false);
    expect(u.settle("parties/a", "R")).toBe(false);
    u.remember("users/b", null);
    expect(u.settle("users/b", "R")).toBe(false);
    u.remember("users/b", null);
    expect(u.settle("users/b", null)).toBe(true);
  });

  it("forgets the oldest past its bound", () => {
    const u = new UncertainWrites(2);
    u.remember("k1", "1");
    u.remember("k2", "2");
    u.remember("k1", "1"); // remembered again: now the newest
    u.remember("k3", "3");
    expect([u.has("k1"), u.has("k2"), u.has("k3")]).toEqual([true, false, true]);
  });
});
