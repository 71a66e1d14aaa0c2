/**
 * The store conformance suite on the MongoDB adapter. It needs a replica set (or sharded cluster):
 * set CCWALLET_TEST_MONGODB_URI. Every store the suite opens gets a fresh, randomly named
 * database, dropped afterwards. Without the variable the suite is reported as skipped, loudly.
 */
import { randomBytes } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { DocumentTooLargeError } from "../../src/store/mongodb/document-size.js";
import { MongoStore } from "../../src/store/mongodb/mongo-store.js";
import type { Store } from "../../src/ledger/store-port.js";
import { describeStoreConformance } from "./conformance.js";
import { describeActiveAtConformance } from "./conformance-active-at.js";
import { describePackageConformance } from "./conformance-packages.js";
import { transactionRequest } from "./mongodb-requests.js";

const uri = process.env.CCWALLET_TEST_MONGODB_URI;

if (!uri) {
  console.warn(
    "MongoDB conformance suite SKIPPED: set CCWALLET_TEST_MONGODB_URI=mongodb://... (replica set) to run it",
  );
}

describe.skipIf(!uri)("MongoStore", () => {
  const databases: string[] = [];
  const dbNames = new WeakMap<Store, string>();

  const connect = async (dbName: string): Promise<Store> => {
    const store = await MongoStore.connect(uri!, { dbName });
    dbNames.set(store, dbName);
    return store;
  };

  const openFresh = async (): Promise<Store> => {
    const dbName = `ccwallet_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
    databases.push(dbName);
    return connect(dbName);
  };

  describeActiveAtConformance("MongoStore", openFresh);

  const reconnect = async (closed: Store) => {
    const dbName = dbNames.get(closed);
    if (!dbName) throw new Error("reopen of a store this test did not open");
    return connect(dbName);
  };

  describeStoreConformance("MongoStore", openFresh, reconnect);
  describePackageConformance("MongoStore", openFresh, reconnect);

  // MongoDB's own limits, which the SQLite store does not have.
  describe("MongoStore limits", () => {
    it("refuses a request over the 16 MiB document limit alone and commits the rest of its batch", async () => {
      const store = await openFresh();
      try {
        // Submitted in one turn: the three share a batch.
        const answers = await Promise.allSettled([
          store.commit(transactionRequest()),
          store.commit(transactionRequest({ payloadChars: 17_000_000 })),
          store.commit(transactionRequest()),
        ]);
        expect(answers[0]).toEqual({ status: "fulfilled", value: { kind: "committed", offset: 1n } });
        expect(answers[1].status).toBe("rejected");
        expect((answers[1] as PromiseRejectedResult).reason).toBeInstanceOf(DocumentTooLargeError);
        expect(answers[2]).toEqual({ status: "fulfilled", value: { kind: "committed", offset: 2n } });
        expect(await store.ledgerEnd()).toBe(2n);
        expect((await store.transactions(0n, 2n, -1)).map((t) => t.offset)).toEqual([1n, 2n]);
        await store.probe();
      } finally {
        await store.close();
      }
    });
  });

  afterAll(async () => {
    const client = new MongoClient(uri!);
    try {
      await client.connect();
      for (const name of databases) await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });
});
