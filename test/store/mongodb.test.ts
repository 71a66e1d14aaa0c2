/**
 * The store conformance suite on the MongoDB adapter. It needs a replica set (or sharded cluster):
 * set CCWALLET_TEST_MONGODB_URI. Every store the suite opens gets a fresh, randomly named
 * database, dropped afterwards. Without the variable the suite is reported as skipped, loudly.
 */
import { randomBytes } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, describe } from "vitest";
import { MongoStore } from "../../src/store/mongodb/mongo-store.js";
import type { Store } from "../../src/ledger/store-port.js";
import { describeStoreConformance } from "./conformance.js";
import { describeActiveAtConformance } from "./conformance-active-at.js";
import { describePackageConformance } from "./conformance-packages.js";

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
