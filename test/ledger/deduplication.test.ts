/**
 * Command deduplication as a client sees it: the commit refuses a duplicate atomically, and the
 * engine looks for one only before refusing a submission for another reason. Either way a
 * duplicate answers DUPLICATE_COMMAND with the original's offset, commits nothing and charges
 * nothing; a command outside its deduplication period is judged on its own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WallClock } from "../../src/ledger/clock.js";
import { exerciseCommand, type Command } from "../../src/ledger/commands.js";
import { Ledger, type SubmitOutcome } from "../../src/ledger/engine.js";
import { Numeric } from "../../src/ledger/numeric.js";
import type { Submission } from "../../src/ledger/commands.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createRegistry, Iou, Iou_Transfer } from "../../src/templates/index.js";

const A = "alice::1220aa";
const B = "bob::1220aa";
const dir = mkdtempSync(join(tmpdir(), "ccwallet-dedup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const createIou: Command = { kind: "create", template: Iou as never, payload: { issuer: A, owner: A, currency: "CC", amount: Numeric.parse("1"), observers: [] } };

function submission(commandId: string, commands: readonly Command[], deduplication: Submission["deduplication"] = { kind: "none" }): Submission {
  return { userId: "u", commandId, submissionId: `${commandId}-sub`, workflowId: "", actAs: [A], readAs: [], commands, deduplication, disclosed: [] };
}

function committed(outcome: SubmitOutcome) {
  if (outcome.kind !== "committed") throw new Error(`rejected: ${outcome.error.message}`);
  return outcome;
}

describe.each([
  ["the writer thread (a file)", () => join(dir, `ledger-${Math.random().toString(36).slice(2)}.sqlite`)],
  ["in-thread writes (:memory:)", () => ":memory:"],
])("deduplication through %s", (_name, file) => {
  async function open() {
    const store = new SqliteStore({ file: file() });
    const ledger = await Ledger.open({ store, registry: createRegistry(), clock: new WallClock(), maxDeduplicationSeconds: 3600n });
    return { store, ledger };
  }

  it("answers a duplicate whose interpretation would succeed with DUPLICATE_COMMAND, committing nothing", async () => {
    const { store, ledger } = await open();
    const first = committed(await ledger.submit(submission("c1", [createIou])));
    const again = await ledger.submit(submission("c1", [createIou]));
    expect(again.kind).toBe("rejected");
    if (again.kind !== "rejected") return;
    expect(again.error.code).toBe("DUPLICATE_COMMAND");
    expect(again.error.context).toMatchObject({ existing_command_offset: String(first.transaction.offset) });
    expect(again.completion.offset).toBeGreaterThan(first.transaction.offset);
    expect((await store.activeContracts({ parties: [A] })).length).toBe(1);
    await store.close();
  });

  it("answers a duplicate whose original consumed its input with DUPLICATE_COMMAND, not CONTRACT_NOT_FOUND", async () => {
    const { store, ledger } = await open();
    const iou = committed(await ledger.submit(submission("make", [createIou]))).transaction.nodes[0];
    const transfer = exerciseCommand(Iou, (iou as { contractId: string }).contractId, Iou_Transfer, { newOwner: B });
    const first = committed(await ledger.submit(submission("give", [transfer])));
    const again = await ledger.submit(submission("give", [transfer]));
    expect(again.kind === "rejected" && again.error.code).toBe("DUPLICATE_COMMAND");
    expect(again.kind === "rejected" && again.error.context).toMatchObject({ existing_command_offset: String(first.transaction.offset) });
    // Past its deduplication period (from the original's offset on), the same command is judged
    // on its own: the contract it names is gone.
    const outside = await ledger.submit(submission("give", [transfer], { kind: "offset", offset: first.transaction.offset }));
    expect(outside.kind === "rejected" && outside.error.code).toBe("CONTRACT_NOT_FOUND");
    await store.close();
  });

  // Canton's deduplicator checks an offset against pruning and the change's last acceptance only
  // (and the Ledger API that it is not negative): one past the ledger end is a window with nothing
  // in it, not an error.
  it("takes an offset period as Canton does: before the original a duplicate, past the ledger end a window with nothing in it, negative refused", async () => {
    const { store, ledger } = await open();
    const first = committed(await ledger.submit(submission("c2", [createIou])));
    const before = await ledger.submit(submission("c2", [createIou], { kind: "offset", offset: first.transaction.offset - 1n }));
    expect(before.kind === "rejected" && before.error.code).toBe("DUPLICATE_COMMAND");
    const negative = await ledger.submit(submission("c2", [createIou], { kind: "offset", offset: -1n }));
    expect(negative.kind === "rejected" && [negative.error.code, negative.error.message]).toEqual(["INVALID_FIELD", expect.stringContaining("offset must not be negative")]);
    expect((await store.activeContracts({ parties: [A] })).length).toBe(1);
    const pastEnd = committed(await ledger.submit(submission("c2", [createIou], { kind: "offset", offset: first.transaction.offset + 1_000n })));
    expect(pastEnd.transaction.offset).toBeGreaterThan(first.transaction.offset);
    expect((await store.activeContracts({ parties: [A] })).length).toBe(2);
    await store.close();
  });
});
