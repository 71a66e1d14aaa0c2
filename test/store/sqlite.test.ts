/** The store conformance suite on the embedded SQLite adapter, on a file in a temp dir (so it can be reopened). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { Store } from "../../src/store/port.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { describeStoreConformance } from "./conformance.js";

const dirs: string[] = [];
const files = new WeakMap<Store, string>();

function openFile(file: string): Store {
  const store = new SqliteStore({ file });
  files.set(store, file);
  return store;
}

describeStoreConformance(
  "SqliteStore",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-store-"));
    dirs.push(dir);
    return openFile(join(dir, "ledger.sqlite"));
  },
  async (closed) => {
    const file = files.get(closed);
    if (!file) throw new Error("reopen of a store this test did not open");
    return openFile(file);
  },
);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
