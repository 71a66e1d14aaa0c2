/**
 * The trigger loop's task semantics (reference A.0): a step that loses a race is retried at once,
 * then after a growing delay, and no more once it runs through; an error no retry can cure is not
 * retried until the step's next tick; a paused step keeps its owed work until it is resumed.
 */
import { describe, expect, it } from "vitest";
import { automationStep, type Scope } from "../../src/automation/automation-step.js";
import { retryDelayMs, MAX_RETRIES } from "../../src/automation/retry-policy.js";
import { TriggerLoop } from "../../src/automation/trigger-loop.js";
import { StaticClock } from "../../src/ledger/clock.js";
import { errors } from "../../src/ledger/errors.js";
import type { TransactionRecord } from "../../src/ledger/records.js";
import { qualifiedId } from "../../src/ledger/template.js";
import type { TransactionFeed } from "../../src/ledger/transaction-feed.js";
import type { NetworkState } from "../../src/network/network-state.js";

const feed = { subscribe: () => () => undefined } as unknown as TransactionFeed;

function loopWith(run: () => Promise<boolean>, paused: string[] = []) {
  const failures: { attempt: number; willRetry: boolean }[] = [];
  const loop = new TriggerLoop({
    feed,
    clock: new StaticClock(1_000_000n),
    readState: async () => ({}) as NetworkState,
    steps: [automationStep("probe", {}, run)],
    paused,
    onError: (_e, at) => failures.push({ attempt: at!.attempt, willRetry: at!.willRetry }),
  });
  return { loop, failures };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("retry policy", () => {
  it("retries at once, then after 200 ms doubling to 5 s, 35 times", () => {
    expect([1, 2, 3, 4, 7, 8, MAX_RETRIES].map(retryDelayMs)).toEqual([0, 200, 400, 800, 5000, 5000, 5000]);
    expect(retryDelayMs(MAX_RETRIES + 1)).toBeUndefined();
  });
});

describe("TriggerLoop", () => {
  it("retries a step that lost a race: at once, then after the backoff, until it runs through", async () => {
    const runs: number[] = [];
    const { loop, failures } = loopWith(async () => {
      runs.push(performance.now());
      if (runs.length <= 2) throw errors.inactiveContracts(["00ab"]);
      return false;
    });
    loop.start();
    await loop.settled();
    expect(runs).toHaveLength(2);
    await sleep(350);
    await loop.settled();
    expect(runs).toHaveLength(3);
    expect(runs[2] - runs[1]).toBeGreaterThanOrEqual(190);
    expect(failures).toEqual([{ attempt: 1, willRetry: true }, { attempt: 2, willRetry: true }]);
    await loop.stop();
  });

  it("counts a retry that finds its work gone as stale", async () => {
    const outcomes: string[] = [];
    let runs = 0;
    const loop = new TriggerLoop({
      feed,
      clock: new StaticClock(1_000_000n),
      readState: async () => ({}) as NetworkState,
      steps: [automationStep("probe", {}, async () => {
        if (++runs === 1) throw errors.inactiveContracts(["00ab"]);
        return false;
      })],
      onStepRun: (_name, outcome) => outcomes.push(outcome),
    });
    loop.start();
    await loop.settled();
    expect(outcomes).toEqual(["failure", "stale"]);
    await loop.stop();
  });

  it("does not retry an error no retry can cure", async () => {
    let runs = 0;
    const { loop, failures } = loopWith(async () => {
      runs++;
      throw errors.invalidArgument("a malformed command");
    });
    loop.start();
    await loop.settled();
    await sleep(250);
    await loop.settled();
    expect(runs).toBe(1);
    expect(failures).toEqual([{ attempt: 1, willRetry: false }]);
    await loop.stop();
  });

  it("refuses to pause a trigger no step is named (a misspelt one paused nothing, silently)", () => {
    expect(() => loopWith(async () => false, ["prob"])).toThrow('automation.pausedTriggers: no trigger is named "prob"; the triggers are "probe"');
  });

  it("keeps a paused step's work until it is resumed", async () => {
    let runs = 0;
    const { loop } = loopWith(async () => (runs++, false), ["probe"]);
    loop.start();
    await loop.settled();
    expect(runs).toBe(0);
    expect(loop.pausedSteps).toEqual(["probe"]);
    loop.resume("probe");
    await loop.settled();
    expect(runs).toBe(1);
    await loop.stop();
  });
});

describe("start and stop", () => {
  it("reacts to ledger changes again once restarted, though a pass was about to run when it stopped", async () => {
    const listeners = new Set<(tx: TransactionRecord) => void>();
    const feed = { subscribe: (l: (tx: TransactionRecord) => void) => (listeners.add(l), () => listeners.delete(l)) } as unknown as TransactionFeed;
    const watched = { id: { packageName: "pkg", packageId: "pkg", moduleName: "M", entityName: "T" } };
    const scopes: Scope[] = [];
    const loop = new TriggerLoop({
      feed,
      clock: new StaticClock(1_000_000n),
      readState: async () => ({}) as NetworkState,
      steps: [automationStep("watcher", { watches: [watched] }, async (_s, _n, scope) => (scopes.push(scope), false))],
    });
    const created = (party: string) =>
      ({ nodes: [{ kind: "create", templateId: qualifiedId(watched.id), signatories: [party], observers: [] }] }) as unknown as TransactionRecord;
    const change = (party: string) => listeners.forEach((l) => l(created(party)));
    loop.start();
    await loop.settled();
    expect(scopes).toEqual(["all"]);
    change("alice");
    await loop.stop(); // the pass for alice was still waiting for its debounce
    loop.start();
    await loop.settled();
    scopes.length = 0;
    change("bob");
    await sleep(100);
    await loop.settled();
    expect(scopes).toEqual([new Set(["bob"])]);
    await loop.stop();
  });
});
