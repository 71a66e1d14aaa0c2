/** WalSync: the fsync behind a SQLite store's acknowledgements. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WalSync } from "../../src/store/sqlite/wal-sync.js";

const dir = mkdtempSync(join(tmpdir(), "ccwallet-walsync-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const waitFor = (sync: WalSync) => new Promise<Error | undefined>((resolve) => sync.afterCommit(resolve));

describe("WalSync", () => {
  it("calls back in the order of the commits, never before a sync has run, and closes once idle", async () => {
    const file = join(dir, "a-wal");
    writeFileSync(file, "frames");
    const sync = new WalSync(file);
    const order: number[] = [];
    let synchronous = true;
    const all = [0, 1, 2, 3, 4].map((i) => new Promise<void>((resolve) => sync.afterCommit((e) => (expect(e).toBeUndefined(), expect(synchronous).toBe(false), order.push(i), resolve()))));
    synchronous = false;
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    const late = waitFor(sync);
    await sync.close();
    expect(await late).toBeUndefined();
  });

  it("fails every waiting and later caller when the file cannot be synced", async () => {
    const sync = new WalSync(join(dir, "missing-wal"));
    const [first, second] = [waitFor(sync), waitFor(sync)];
    expect((await first)?.message).toMatch(/ENOENT/);
    expect((await second)?.message).toMatch(/ENOENT/);
    writeFileSync(join(dir, "missing-wal"), "now it exists");
    expect((await waitFor(sync))?.message).toMatch(/ENOENT/);
    await sync.close();
  });
});
