/**
 * A commit whose outcome is unknown (here: the WAL cannot be synced after the batch's commit)
 * is answered with Canton's REQUEST_TIME_OUT — not a definite answer, worth retrying with the same
 * command id — never as committed, rejected or an internal error.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { WallClock } from "../../src/ledger/clock.js";
import { Ledger } from "../../src/ledger/engine.js";
import { LedgerError } from "../../src/ledger/errors.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { CommitOutcomeUnknown } from "../../src/ledger/store-port.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createRegistry, Iou } from "../../src/templates/index.js";

const A = "alice::1220aa";
const dir = mkdtempSync(join(tmpdir(), "ccwallet-outcome-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a commit with an unknown outcome", () => {
  it("answers REQUEST_TIME_OUT (not definite) when the store cannot sync what it committed", async () => {
    const file = join(dir, "ledger.sqlite");
    const first = new SqliteStore({ file });
    const firstLedger = await Ledger.open({ store: first, registry: createRegistry(), clock: new WallClock(), maxDeduplicationSeconds: 3600n });
    expect((await firstLedger.submit(iou("first"))).kind).toBe("committed");
    await first.close();
    // Reopened; the WAL is opened for syncing at the first commit: gone by then, the sync fails
    // after the commit (what is on disk is then unknown).
    const store = new SqliteStore({ file });
    const ledger = await Ledger.open({ store, registry: createRegistry(), clock: new WallClock(), maxDeduplicationSeconds: 3600n });
    const thread = (store as unknown as { writer: { worker: Worker } }).writer.worker;
    await new Promise((resolve) => thread.once("message", resolve)); // the writer's connection is open
    rmSync(`${file}-wal`);
    const error = await ledger.submit(iou("second")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LedgerError);
    expect(error).toMatchObject({ code: "REQUEST_TIME_OUT", definiteAnswer: false });
    expect((error as Error).cause).toBeInstanceOf(CommitOutcomeUnknown);
    // Later commands are refused outright: the store commits nothing more until a restart.
    await expect(ledger.submit(iou("third"))).rejects.not.toBeInstanceOf(CommitOutcomeUnknown);
    await store.close();
  });
});

function iou(commandId: string) {
  return {
    userId: "u",
    commandId,
    submissionId: commandId,
    workflowId: "",
    actAs: [A],
    readAs: [],
    commands: [{ kind: "create" as const, template: Iou as never, payload: { issuer: A, owner: A, currency: "CC", amount: Numeric.parse("1"), observers: [] } }],
    deduplication: { kind: "none" as const },
    disclosed: [],
  };
}
