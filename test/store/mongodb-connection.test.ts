/**
 * What the MongoDB adapter takes from its configuration and from the server's `hello`: the commit
 * timeout, the write concern built from it, and the document size limit. No server is needed.
 */
import { MongoClient, WriteConcern } from "mongodb";
import { describe, expect, it } from "vitest";
import { deploymentOf, parseUri } from "../../src/store/mongodb/connection.js";
import { DEFAULT_COMMIT_TIMEOUT_MS, commitTimeoutMs, dbOptions, durableWriteConcern, transactionOptions } from "../../src/store/mongodb/durability.js";

describe("commitTimeoutMs", () => {
  it("takes the store's option, else the connection string's wtimeoutMS, else 10 s", () => {
    expect(DEFAULT_COMMIT_TIMEOUT_MS).toBe(10_000);
    expect(commitTimeoutMs(2_000, 5_000)).toBe(2_000);
    expect(commitTimeoutMs(undefined, 5_000)).toBe(5_000);
    expect(commitTimeoutMs(undefined, undefined)).toBe(10_000);
  });

  it("never waits forever: 0 (the server's 'no timeout'), negative or non-finite values count as not given", () => {
    expect(commitTimeoutMs(0, 0)).toBe(10_000);
    expect(commitTimeoutMs(-1, 3_000)).toBe(3_000);
    expect(commitTimeoutMs(Number.POSITIVE_INFINITY, Number.NaN)).toBe(10_000);
    expect(commitTimeoutMs(1.2, undefined)).toBe(2);
  });

  it("reads the connection string's wtimeoutMS where the driver parses it", () => {
    // Only parsed: a MongoClient does not connect until asked to.
    const client = new MongoClient("mongodb://127.0.0.1:1/ccwallet?wtimeoutMS=2500");
    expect(commitTimeoutMs(undefined, client.options.writeConcern?.wtimeoutMS)).toBe(2_500);
    expect(new MongoClient("mongodb://127.0.0.1:1/").options.writeConcern?.wtimeoutMS).toBeUndefined();
  });
});

describe("write concerns", () => {
  it("commits wait for a majority of journals, for a bounded time", () => {
    const wc = durableWriteConcern(2_500);
    expect({ w: wc.w, journal: wc.journal, wtimeoutMS: wc.wtimeoutMS }).toEqual({ w: "majority", journal: true, wtimeoutMS: 2_500 });
    const tx = transactionOptions(2_500);
    expect(tx.readConcern).toMatchObject({ level: "snapshot" });
    expect(tx.writeConcern?.wtimeoutMS).toBe(2_500);
    expect(tx.readPreference).toMatchObject({ mode: "primary" });
  });

  it("reads only majority-committed data from the primary, and writes durably, for a bounded time, outside transactions too", () => {
    const options = dbOptions(2_500);
    expect(options.readConcern).toMatchObject({ level: "majority" });
    expect(options.readPreference).toMatchObject({ mode: "primary" });
    // Parties, users, settings and packages are written outside transactions with the database's
    // write concern: without its wtimeout, a lost majority kept them waiting for good.
    expect(options.writeConcern).toMatchObject({ w: "majority", journal: true, wtimeoutMS: 2_500 });
  });

  it("hands the database's write concern to each write outside a transaction, as the driver sends it", () => {
    // Only parsed: a MongoClient does not connect until asked to.
    const db = new MongoClient("mongodb://127.0.0.1:1/").db("ccwallet", dbOptions(2_500));
    const wc = db.collection("parties").writeConcern;
    expect({ w: wc?.w, journal: wc?.journal, wtimeoutMS: wc?.wtimeoutMS }).toEqual({ w: "majority", journal: true, wtimeoutMS: 2_500 });
    const command: { writeConcern?: unknown } = {};
    WriteConcern.apply(command, wc!);
    expect(command.writeConcern).toEqual({ w: "majority", wtimeout: 2_500, j: true });
  });
});

describe("deploymentOf", () => {
  it("takes the document size limit from hello, 16 MiB when it does not say", () => {
    expect(deploymentOf({ setName: "rs0", maxBsonObjectSize: 16_777_216 })).toEqual({ replicated: true, maxDocumentBytes: 16_777_216 });
    expect(deploymentOf({ msg: "isdbgrid", maxBsonObjectSize: 1_000 })).toEqual({ replicated: true, maxDocumentBytes: 1_000 });
    expect(deploymentOf({ setName: "rs0" })).toEqual({ replicated: true, maxDocumentBytes: 16_777_216 });
    expect(deploymentOf({ setName: "rs0", maxBsonObjectSize: "big" })).toEqual({ replicated: true, maxDocumentBytes: 16_777_216 });
  });

  it("tells a standalone server from a replica set or mongos", () => {
    expect(deploymentOf({ isWritablePrimary: true, maxBsonObjectSize: 16_777_216 }).replicated).toBe(false);
  });
});

describe("parseUri", () => {
  it("names the database from the path, else ccwallet, and describes the server without credentials", () => {
    expect(parseUri("mongodb://user:p%40ss@h1:27017,h2/ledger?replicaSet=rs0")).toEqual({ dbName: "ledger", description: "mongodb://h1:27017,h2/ledger" });
    expect(parseUri("mongodb+srv://cluster.example.net/?retryWrites=true")).toEqual({ dbName: "ccwallet", description: "mongodb+srv://cluster.example.net/ccwallet" });
    expect(parseUri("mongodb://h/ledger", "other").dbName).toBe("other");
  });
});
