/**
 * The MongoDB adapter's commit pipeline without a server: a batch split into refused and accepted
 * requests and answered one by one, and a pipeline that stops after a commit whose outcome is
 * unknown. `commitBatch` is a double that records what it was asked to commit.
 */
import { describe, expect, it } from "vitest";
import type { CommitRequest, CommitResult } from "../../src/ledger/store-port.js";
import type { CommitOutcome } from "../../src/store/mongodb/batch-outcomes.js";
import { mergeOutcomes, screenBatch } from "../../src/store/mongodb/batch-outcomes.js";
import { CommitOutcomeUnknownError } from "../../src/store/mongodb/commit-outcome.js";
import { GroupCommit, lastOffset } from "../../src/store/mongodb/group-commit.js";
import { rejectionRequest, transactionRequest } from "./mongodb-requests.js";

describe("screenBatch and mergeOutcomes", () => {
  it("commit the accepted items and answer every item in its place", () => {
    const tooLarge = new Error("too large");
    const { accepted, refusals } = screenBatch(["a", "BIG", "b", "c"], (x) => (x === "BIG" ? tooLarge : undefined));
    expect(accepted).toEqual(["a", "b", "c"]);
    expect(refusals).toEqual([undefined, tooLarge, undefined, undefined]);
    const results: CommitResult[] = [
      { kind: "committed", offset: 10n },
      { kind: "rejected", offset: 11n },
      { kind: "committed", offset: 12n },
    ];
    expect(mergeOutcomes(refusals, results)).toEqual([
      { ok: true, result: { kind: "committed", offset: 10n } },
      { ok: false, error: tooLarge },
      { ok: true, result: { kind: "rejected", offset: 11n } },
      { ok: true, result: { kind: "committed", offset: 12n } },
    ]);
  });

  it("refuse a mismatch between results and accepted items rather than misattribute them", () => {
    expect(() => mergeOutcomes([undefined, undefined], [{ kind: "committed", offset: 1n }])).toThrow("1 commit results for 2 accepted requests");
  });

  it("answer a batch that is refused whole without results", () => {
    const e = new Error("x");
    expect(mergeOutcomes([e], [])).toEqual([{ ok: false, error: e }]);
  });
});

describe("lastOffset", () => {
  it("is the highest offset committed or rejected in the batch, none if all were refused", () => {
    expect(lastOffset([{ ok: true, result: { kind: "committed", offset: 4n } }, { ok: false, error: 1 }, { ok: true, result: { kind: "rejected", offset: 5n } }])).toBe(5n);
    expect(lastOffset([{ ok: false, error: 1 }])).toBeUndefined();
  });
});

/** A GroupCommit over a double whose answers the test gives per batch. */
function pipeline(answer: (requests: readonly CommitRequest[], batch: number) => Promise<CommitOutcome[]>) {
  const batches: (readonly CommitRequest[])[] = [];
  const ends: bigint[] = [];
  const commits = new GroupCommit(
    (requests) => {
      batches.push(requests);
      return answer(requests, batches.length);
    },
    (end) => ends.push(end),
  );
  return { commits, batches, ends };
}

const settle = (p: Promise<CommitResult>) => p.then((result) => ({ result }), (error: unknown) => ({ error }));

describe("GroupCommit", () => {
  it("answers each request of a batch by its own outcome: a refused one fails alone", async () => {
    const refusal = new Error("document too large");
    let next = 1n;
    const { commits, batches, ends } = pipeline(async (requests) =>
      requests.map((r): CommitOutcome => (r.kind === "transaction" && r.creates.length === 0 ? { ok: false, error: refusal } : { ok: true, result: { kind: "committed", offset: next++ } })),
    );
    const big = { ...transactionRequest(), creates: [] };
    const answers = await Promise.all([transactionRequest(), big, transactionRequest()].map((r) => settle(commits.submit(r))));
    expect(batches).toHaveLength(1);
    expect(answers).toEqual([{ result: { kind: "committed", offset: 1n } }, { error: refusal }, { result: { kind: "committed", offset: 2n } }]);
    expect(ends).toEqual([2n]);
    expect(commits.failure).toBeUndefined();
  });

  it("tells nobody of a new end when every request of a batch was refused", async () => {
    const { commits, ends } = pipeline(async (requests) => requests.map(() => ({ ok: false, error: new Error("too large") })));
    await settle(commits.submit(transactionRequest()));
    expect(ends).toEqual([]);
  });

  it("rejects a failed batch and keeps committing after it when nothing of it was applied", async () => {
    const failure = new Error("E11000 duplicate key");
    const { commits, batches } = pipeline(async (requests, batch) => {
      if (batch === 1) throw failure;
      return requests.map(() => ({ ok: true, result: { kind: "committed", offset: 7n } }));
    });
    expect(await settle(commits.submit(transactionRequest()))).toEqual({ error: failure });
    expect(await settle(commits.submit(transactionRequest()))).toEqual({ result: { kind: "committed", offset: 7n } });
    expect(batches).toHaveLength(2);
    expect(commits.failure).toBeUndefined();
  });

  it("stops after a commit with an unknown outcome: its batch gets that error, later requests are never tried", async () => {
    const unknown = new CommitOutcomeUnknownError(new Error("waiting for replication timed out"), 3);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { commits, batches, ends } = pipeline(async () => {
      await gate;
      throw unknown;
    });
    const first = settle(commits.submit(transactionRequest()));
    // Submitted while the first batch is in flight: queued for the next one.
    await new Promise((resolve) => setImmediate(resolve));
    const queued = settle(commits.submit(rejectionRequest()));
    release();
    expect(await first).toEqual({ error: unknown });
    const queuedAnswer = await queued;
    expect(batches).toHaveLength(1);
    expect(commits.failure).toBeInstanceOf(Error);
    expect(commits.failure).not.toBe(unknown);
    expect(commits.failure!.cause).toBe(unknown);
    expect(commits.failure!.message).toBe(`the MongoDB store accepts no more commits until restarted: ${unknown.message}`);
    expect(queuedAnswer).toEqual({ error: commits.failure });
    expect(await settle(commits.submit(transactionRequest()))).toEqual({ error: commits.failure });
    expect(batches).toHaveLength(1);
    expect(ends).toEqual([]);
    await commits.idle();
  });
});
