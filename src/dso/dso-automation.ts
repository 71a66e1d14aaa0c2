/**
 * Runs the simulated DSO (and the validator's liveness report) as ledger time passes: on every
 * static-time change, and on a timer with the wall clock. Each pass repeats its steps until none
 * has anything left to do, so a time jump is fully processed before `settled()` resolves.
 */
import type { NetworkConfig } from "../config/network.js";
import type { Clock } from "../ledger/clock.js";
import { StaticClock } from "../ledger/clock.js";
import { LedgerError } from "../ledger/errors.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import { expireDust, expirePreapprovals } from "./expiries.js";
import { readNetwork, type NetworkState } from "./network-state.js";
import { advanceRounds, closeIssuingRounds, retireClosedRounds, startIssuing } from "./round-lifecycle.js";
import { recordLiveness } from "./validator-liveness.js";

/** An extra housekeeping step (e.g. expiring transfer instructions), run in every pass. */
export type AutomationStep = (state: NetworkState, now: bigint) => Promise<boolean>;

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
const LEDGER_TRIGGER_MS = 200;

export class DsoAutomation {
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private lastDustRound = -1n;

  constructor(private readonly options: DsoAutomationOptions) {}

  start(): void {
    const { clock } = this.options;
    const unsubs: (() => void)[] = [];
    if (clock instanceof StaticClock) unsubs.push(clock.onChange(() => this.trigger()));
    else this.timer = setInterval(() => this.trigger(), this.options.pollMs ?? 1000);
    // New transactions may need a reaction (e.g. an accepted offer to complete): react soon,
    // but at most once per interval so a busy ledger does not keep the loop spinning.
    unsubs.push(this.options.client.ledger.store.onLedgerEnd(() => this.triggerSoon()));
    this.unsubscribe = () => unsubs.forEach((u) => u());
    this.trigger();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.unsubscribe?.();
    await this.settled();
  }

  /** Runs a pass now (after any in flight) and waits for it: tests and callers that just acted. */
  async runNow(): Promise<void> {
    this.trigger();
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

  private soon?: NodeJS.Timeout;
  private triggerSoon(): void {
    this.soon ??= setTimeout(() => {
      this.soon = undefined;
      this.trigger();
    }, LEDGER_TRIGGER_MS);
  }

  trigger(): void {
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
    const { client, clock, network, validator } = this.options;
    for (let i = 0; i < MAX_STEPS_PER_PASS; i++) {
      const now = clock.now();
      const state = await readNetwork(client, this.options.dso);
      const acted = await this.firstThatActs([
        () => advanceRounds(client, network, state, now),
        () => startIssuing(client, state),
        () => closeIssuingRounds(client, state, now),
        () => retireClosedRounds(client, state),
        () => expirePreapprovals(client, state, now),
        () => this.dustOncePerRound(state, now),
        () => recordLiveness(client, state, validator, now),
        ...(this.options.extraSteps ?? []).map((s) => () => s(state, now)),
      ]);
      if (!acted) return;
    }
  }

  private async firstThatActs(steps: (() => Promise<boolean>)[]): Promise<boolean> {
    for (const step of steps) {
      try {
        if (await step()) return true;
      } catch (e) {
        // A contention with a user's command is normal: the next pass sees the new state.
        if (!(e instanceof LedgerError)) throw e;
        this.options.onError?.(e);
        return true;
      }
    }
    return false;
  }

  private async dustOncePerRound(state: NetworkState, now: bigint): Promise<boolean> {
    const open = state.openRounds.filter((r) => r.payload.opensAt <= now);
    const n = open[open.length - 1]?.payload.round.number ?? -1n;
    if (n === this.lastDustRound) return false;
    this.lastDustRound = n;
    return expireDust(this.options.client, state, now);
  }
}
