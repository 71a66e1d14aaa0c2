/**
 * The node's trigger loop: runs automation steps (the simulated DSO's, the token standard's, the
 * wallet's triggers) as ledger time passes and as the ledger changes. Work is owed per step
 * (pending-work.ts): every step at start, on `runNow()` and on a jump of static time or a new
 * heartbeat contract (the open round); timed steps on every wall-clock tick; a step whose watched
 * contracts were created or archived soon after (debounced, so a busy ledger does not keep the loop
 * spinning). A pass repeats until no step has work left, so a time jump is fully processed before
 * `settled()`. Which steps run is the caller's business (src/dso/start-network.ts composes them).
 */
import type { Clock } from "../ledger/clock.js";
import { StaticClock } from "../ledger/clock.js";
import type { TransactionRecord } from "../ledger/records.js";
import { qualifiedId } from "../ledger/template.js";
import type { TransactionFeed } from "../ledger/transaction-feed.js";
import type { NetworkState } from "../network/network-state.js";
import type { AutomationStep, Scope, Watched } from "./automation-step.js";
import { PendingWork } from "./pending-work.js";
import { isRetryable, retryDelayMs } from "./retry-policy.js";

export interface TriggerLoopOptions {
  readonly feed: TransactionFeed;
  readonly clock: Clock;
  /** The network state every pass hands its steps (read again after a step changed the ledger). */
  readonly readState: () => Promise<NetworkState>;
  /** The steps, in the order a pass runs them. */
  readonly steps: readonly AutomationStep[];
  /** A created contract of this template owes every step a full look (the network's new round). */
  readonly heartbeat?: Watched;
  readonly pollMs?: number;
  /** Told of every failure: which step, which consecutive attempt, and whether it will be retried. */
  readonly onError?: (error: unknown, context?: { readonly trigger: string; readonly attempt: number; readonly willRetry: boolean }) => void;
  /** Steps not to run (by name) until resumed. */
  readonly paused?: readonly string[];
  /** Told of every step run: whether it changed the ledger, found nothing due, or failed, and how long it took. */
  readonly onStepRun?: (name: string, outcome: StepOutcome, seconds: number) => void;
}

/** success: changed the ledger; noop: nothing due; stale: a retry found its work gone; failure: threw. */
export type StepOutcome = "success" | "noop" | "stale" | "failure";

const MAX_STEPS_PER_PASS = 1000;
/** How long new transactions may gather before a pass looks at them (a pass costs only what changed). */
const LEDGER_TRIGGER_MS = 20;
export class TriggerLoop {
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private timer?: NodeJS.Timeout;
  private soon?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private readonly pending: PendingWork;
  private readonly heartbeat: string | undefined;
  /** Consecutive failed runs of a step (reset when it runs through). */
  private readonly attempts = new Map<AutomationStep, number>();
  /** Delayed retries, cleared on stop. */
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly paused: Set<string>;
  /** Work owed to paused steps, handed back on resume. */
  private readonly deferred = new Map<AutomationStep, Scope>();

  constructor(private readonly options: TriggerLoopOptions) {
    this.pending = new PendingWork(options.steps);
    this.paused = new Set(options.paused ?? []);
    // A misspelt name paused nothing, silently (a hostile review).
    const names = new Set(options.steps.map((s) => s.name));
    const unknown = [...this.paused].filter((n) => !names.has(n));
    if (unknown.length > 0) {
      throw new Error(`automation.pausedTriggers: no trigger is named ${unknown.map((n) => JSON.stringify(n)).join(", ")}; the triggers are ${[...names].map((n) => JSON.stringify(n)).join(", ")}`);
    }
    this.heartbeat = options.heartbeat && qualifiedId(options.heartbeat.id);
  }

  /** Between `start()` and `stop()`: readiness reports a node whose automation stopped. */
  get started(): boolean {
    return this.unsubscribe !== undefined;
  }

  start(): void {
    const { clock } = this.options;
    const unsubs: (() => void)[] = [];
    // A jump of static time (tests, demos) is processed in full; the wall clock ticks timed steps.
    if (clock instanceof StaticClock) unsubs.push(clock.onChange(() => this.runEverything()));
    else {
      this.timer = setInterval(() => {
        this.pending.tick();
        this.trigger();
      }, this.options.pollMs ?? 1000);
    }
    unsubs.push(this.options.feed.subscribe((tx) => this.changed(tx)));
    this.unsubscribe = () => unsubs.forEach((u) => u());
    this.runEverything();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.timer = undefined;
    // Forgotten, not only cleared: a pass waiting here when it stopped kept every later change
    // from scheduling one (`soon ??=`) once it started again.
    this.soon = undefined;
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.settled();
  }

  /** Runs every step now (after any pass in flight) and waits: tests and callers that just acted. */
  async runNow(): Promise<void> {
    this.runEverything();
    await this.settled();
  }

  /** Resolves once every pass triggered so far has finished. */
  async settled(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.running;
      await current;
    } while (current !== this.running);
  }

  private runEverything(): void {
    this.pending.everything();
    this.trigger();
  }

  private changed(tx: TransactionRecord): void {
    // A new open round is the network's heartbeat: everyone looks at everything once per round.
    if (tx.nodes.some((n) => n.kind === "create" && n.templateId === this.heartbeat)) this.pending.everything();
    else if (!this.pending.changed(tx)) return;
    this.soon ??= setTimeout(() => {
      this.soon = undefined;
      this.trigger();
    }, LEDGER_TRIGGER_MS);
  }

  private trigger(): void {
    if (this.again) return;
    this.again = true;
    this.running = this.running.then(async () => {
      this.again = false;
      try {
        await this.pass();
      } catch (e) {
        this.options.onError?.(e);
      }
    });
  }

  private async pass(): Promise<void> {
    for (let i = 0; i < MAX_STEPS_PER_PASS && !this.pending.isEmpty; i++) {
      const due = this.pending.take();
      const now = this.options.clock.now();
      const state = await this.options.readState();
      for (const [step, scope] of due) {
        due.delete(step);
        if (this.paused.has(step.name)) {
          const owed = this.deferred.get(step);
          this.deferred.set(step, owed === "all" || scope === "all" ? "all" : new Set([...(owed ?? []), ...scope]));
          continue;
        }
        if (await this.runStep(step, scope, state, now)) {
          // It changed the ledger: what is left runs on a fresh read of the network.
          this.pending.owe(step, scope);
          for (const [rest, restScope] of due) this.pending.owe(rest, restScope);
          break;
        }
      }
    }
  }

  /** Runs one step; true if the loop should re-read the network before going on. */
  private async runStep(step: AutomationStep, scope: Scope, state: NetworkState, now: bigint): Promise<boolean> {
    const started = performance.now();
    const took = () => (performance.now() - started) / 1000;
    try {
      const changed = await step.run(state, now, scope);
      // A retry that finds nothing to do: the failed task's contracts are gone (Splice's TaskStale).
      const stale = !changed && this.attempts.has(step);
      this.attempts.delete(step);
      this.options.onStepRun?.(step.name, changed ? "success" : stale ? "stale" : "noop", took());
      return changed;
    } catch (e) {
      this.options.onStepRun?.(step.name, "failure", took());
      return this.failed(step, scope, e);
    }
  }

  /**
   * A failed step is retried as retry-policy.ts says: at once on the new state (true: the pass
   * re-reads the network), then after a growing delay; past the retries, or for an error no retry
   * cures, it waits for its next tick. The error is reported either way.
   */
  private failed(step: AutomationStep, scope: Scope, error: unknown): boolean {
    const attempt = (this.attempts.get(step) ?? 0) + 1;
    const delay = isRetryable(error) ? retryDelayMs(attempt) : undefined;
    this.options.onError?.(error, { trigger: step.name, attempt, willRetry: delay !== undefined });
    if (delay === undefined) {
      this.attempts.delete(step);
      this.pending.retryLater(step, scope);
      return false;
    }
    this.attempts.set(step, attempt);
    if (delay === 0) return true;
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      this.pending.owe(step, scope);
      this.trigger();
    }, delay).unref();
    this.retries.add(timer);
    return false;
  }

  /** Stops running `name` (Splice's `automation.paused-triggers`); work owed to it waits for `resume`. */
  pause(name: string): void {
    this.paused.add(name);
  }

  resume(name: string): void {
    if (!this.paused.delete(name)) return;
    for (const [step, scope] of this.deferred) {
      if (step.name !== name) continue;
      this.deferred.delete(step);
      this.pending.owe(step, scope);
    }
    this.trigger();
  }

  /** Names of the paused steps. */
  get pausedSteps(): readonly string[] {
    return [...this.paused];
  }
}
