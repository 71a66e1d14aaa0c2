/**
 * The benches' raw SQLite baselines run against the store's own schema: a schema change that
 * drops or renames a table they write must fail here, not at the first `npm run bench`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteBaselines, sqliteTransferCommits } from "../../bench/lib/raw.js";

const dir = mkdtempSync(join(tmpdir(), "ccwallet-raw-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("raw baselines of the benches", () => {
  it("write the store's schema and measure something", () => {
    const b = sqliteBaselines(dir, 0.02);
    for (const r of [b.onePerTx, b.grouped64, b.writeSet64, b.writeSet64Hashed]) expect(r.perSec).toBeGreaterThan(0);
    expect(sqliteTransferCommits(dir, 0.02).perSec).toBeGreaterThan(0);
  });
});
