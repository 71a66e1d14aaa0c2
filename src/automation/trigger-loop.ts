/**
 * Runs the simulated DSO (and the validator's liveness report, the token standard's and the
 * wallet's triggers) as ledger time passes and as the ledger changes. Work is owed per step
 * (pending-work.ts): every step at start, on `runNow()` and on a jump of static time or a new
 * open round; timed steps on every wall-clock tick; a step whose watched contracts were created
 * or archived soon after (debounced, so a busy ledger does not keep the loop spinning). A pass
 * repeats until no step has work left, so a time jump is fully processed before `settled()`.
 */
import type { NetworkConfig } from "../config/network.js";
import type { Clock } from "../ledger/clock.js";
import { StaticClock } from "../ledger/clock.js";
import { LedgerError } from "../ledger/errors.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import type { TransactionRecord } from "../ledger/records.js";
import { qualifiedId } from "../ledger/template.js";
import { AmuletRules } from "../templates/splice/amulet-rules.js";
import { ClosedMiningRound, IssuingMiningRound, OpenMiningRound, SummarizingMiningRound } from "../templates/splice/round.js";
import { automationStep, type AutomationStep, type Scope, type Watched } from "./automation-step.js";
import { expireDust, expirePreapprovals } from "../dso/expiries.js";
import { readNetwork, type NetworkState } from "../network/network-state.js";
import { PendingWork } from "./pending-work.js";
import { advanceRounds, closeIssuingRounds, retireClosedRounds, startIssuing } from "../dso/round-lifecycle.js";
import { recordLiveness } from "../dso/validator-liveness.js";


export interface DsoAutomationOptions {
  readonly client: LedgerClient;
  readonly clock: Clock;
  readonly network: NetworkConfig;
  readonly dso: string;
  readonly validator: string;
  readonly pollMs?: number;
  readonly extraSteps?: readonly AutomationStep[];
  readonly onError?: (error: unknown) => void;
}

const MAX_STEPS_PER_PASS = 1000;
/** How long new transactions may gather before a pass looks at them (a pass costs only what changed). */
const LEDGER_TRIGGER_MS = 20;
const NEW_ROUND = qualifiedId(OpenMiningRound.id);

export class DsoAutomation {
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private timer?: NodeJS.Timeout;
  private soon?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private lastDustRound = -1n;
  private readonly steps: readonly AutomationStep[];
  private readonly pending: PendingWork;

  constructor(private readonly options: DsoAutomationOptions) {
    this.steps = [...this.dsoSteps(), ...(options.extraSteps ?? [])];
    this.pending = new PendingWork(this.steps);
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
    unsubs.push(this.options.client.ledger.feed.subscribe((tx) => this.changed(tx)));
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
    if (tx.nodes.some((n) => n.kind === "create" && n.templateId === NEW_ROUND)) this.pending.everything();
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
      const state = await readNetwork(this.options.client, this.options.dso);
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

  /** The simulated DSO's own steps and the validator's liveness report, in the order they run. */
  private dsoSteps(): AutomationStep[] {
    const { client, network, validator } = this.options;
    const rounds: readonly Watched[] = [OpenMiningRound, SummarizingMiningRound, IssuingMiningRound, ClosedMiningRound];
    return [
      automationStep("advance rounds", { watches: [AmuletRules, ...rounds], timed: true }, (state, now) => advanceRounds(client, network, state, now)),
      automationStep("start issuing", { watches: rounds, timed: true }, (state) => startIssuing(client, state)),
      automationStep("close issuing rounds", { watches: rounds, timed: true }, (state, now) => closeIssuingRounds(client, state, now)),
      automationStep("retire closed rounds", { watches: rounds, timed: true }, (state) => retireClosedRounds(client, state)),
      // Expiries and the liveness report come due with time alone.
      automationStep("expire preapprovals", { timed: true }, (state, now) => expirePreapprovals(client, state, now)),
      automationStep("expire dust", { timed: true }, (state, now) => this.dustOncePerRound(state, now)),
      automationStep("record liveness", { timed: true }, (state, now) => recordLiveness(client, state, validator, now)),
    ];
  }

  private async dustOncePerRound(state: NetworkState, now: bigint): Promise<boolean> {
    const open = state.openRounds.filter((r) => r.payload.opensAt <= now);
    const n = open[open.length - 1]?.payload.round.number ?? -1n;
    if (n === this.lastDustRound) return false;
    this.lastDustRound = n;
    return expireDust(this.options.client, state, now);
  }
}
