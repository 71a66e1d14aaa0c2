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
import { LedgerError } from "../ledger/errors.js";
import type { TransactionRecord } from "../ledger/records.js";
import { qualifiedId } from "../ledger/template.js";
import type { TransactionFeed } from "../ledger/transaction-feed.js";
import type { NetworkState } from "../network/network-state.js";
import type { AutomationStep, Scope, Watched } from "./automation-step.js";
import { PendingWork } from "./pending-work.js";

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
  readonly onError?: (error: unknown) => void;
}

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

  constructor(private readonly options: TriggerLoopOptions) {
    this.pending = new PendingWork(options.steps);
    this.heartbeat = options.heartbeat && qualifiedId(options.heartbeat.id);
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
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.unsubscribe?.();
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
    try {
      return await step.run(state, now, scope);
    } catch (e) {
      this.options.onError?.(e);
      // A contention with a user's command is normal: look again at once, on the new state.
      if (e instanceof LedgerError) return true;
      this.pending.retryLater(step, scope);
      return false;
    }
  }
}
