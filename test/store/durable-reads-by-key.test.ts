/**
 * A keyed contract created by a batch the writer has committed but not answered: an
 * interpretation that finds it by key reads it again by id, so both reads must stop at the same
 * end. With only the reads by id bounded (a review of session 28), ExerciseByKey found the key and
 * then failed with CONTRACT_NOT_FOUND.
 */
import { describe, expect, it } from "vitest";
import { WallClock } from "../../src/ledger/clock.js";
import type { Command, Submission } from "../../src/ledger/commands.js";
import { Ledger } from "../../src/ledger/engine.js";
import { newUpdateIds } from "../../src/ledger/ids.js";
import { keyHashOf } from "../../src/ledger/interpreter.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { Account, createRegistry } from "../../src/templates/index.js";
import { freshFile, internals, Spy, turn } from "./file-spy.js";

const A = "alice::1220aa";
let n = 0;
const submission = (actAs: string[], commands: Command[]): Submission => ({
  userId: "u", commandId: `c${++n}`, submissionId: `s${n}`, workflowId: "", actAs, readAs: [], commands, deduplication: { kind: "none" }, disclosed: [],
});

describe("reads by key and by id between a batch's commit and its answer", () => {
  it("agree on a keyed contract the batch creates", async () => {
    const file = freshFile();
    const store = new SqliteStore({ file });
    const ledger = await Ledger.open({ store, registry: createRegistry(), clock: new WallClock(), maxDeduplicationSeconds: 3600n });
    const spy = new Spy(file);
    const key = { owner: A, id: "main" };
    const creating = ledger.submit(submission([A], [{ kind: "create", template: Account as never, payload: { owner: A, id: "main", balance: Numeric.parse("1") } }]));
    for (let i = 0; i < 100 && internals(store).inFlight === 0; i++) await turn();
    expect(spy.spinUntil(1n, 5_000)).toBe(true); // committed by the writer, not answered
    expect(await store.ledgerEnd()).toBe(0n);
    const byKey = await store.activeContractByKey(keyHashOf(Account as never, key));
    const byId = byKey && (await store.activeContract(byKey.contractId));
    let error: unknown;
    try {
      await ledger.interpret(
        submission([A], [{ kind: "exerciseByKey", template: Account as never, key, choice: "Account_Deposit", argument: { amount: Numeric.parse("2") } }]),
        BigInt(Date.now()) * 1000n,
        newUpdateIds(),
      );
    } catch (e) {
      error = e;
    }
    expect((await creating).kind).toBe("committed");
    spy.close();
    await store.close();
    // Either both see it (the old behaviour) or neither does (key not found): not one of each.
    expect({ byKey: byKey?.contractId, byId: byId?.contractId }).toEqual({ byKey: byKey?.contractId, byId: byKey?.contractId });
    expect((error as { code?: string } | undefined)?.code).not.toBe("CONTRACT_NOT_FOUND");
  });
});
