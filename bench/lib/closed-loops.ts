/**
 * Closed-loop load: `n` callers, each starting its next operation as soon as the last one ends,
 * for a warm-up and then the measured window. An operation counts if it started and ended inside
 * the window; all timing is taken in the thread that runs the loops.
 */
import { performance } from "node:perf_hooks";
import { measureWindow } from "./measure-window.js";
import type { Mark } from "./task-worker.js";

export interface LoopsResult {
  /** Latencies (ms) of operations that completed inside the measured window. */
  readonly latencies: number[];
  readonly seconds: number;
  readonly errors: number;
  readonly firstError?: string;
}

export interface LoopsWindow {
  readonly warmupMs: number;
  readonly durationMs: number;
  /** A caller stops after this many errors in all (default 50). */
  readonly maxErrors?: number;
}

/** `step(i, keep)`: caller i's operation; extra samples go through `keep`, held to the same window rule. */
export type LoopStep = (i: number, keep: (f: () => void) => void) => Promise<void>;

export async function closedLoops(n: number, w: LoopsWindow, mark: Mark, step: LoopStep): Promise<LoopsResult> {
  const maxErrors = w.maxErrors ?? 50;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const { from, to, closed } = measureWindow(performance.now(), w.warmupMs, w.durationMs, mark);
  const caller = async (_: unknown, i: number) => {
    for (;;) {
      const start = performance.now();
      if (start >= to) return;
      const kept: (() => void)[] = [];
      try {
        await step(i, (f) => kept.push(f));
        const end = performance.now();
        if (start >= from && end <= to) {
          latencies.push(end - start);
          for (const f of kept) f();
        }
      } catch (e) {
        errors++;
        firstError ??= String((e as Error)?.message ?? e);
        if (errors > maxErrors) return;
      }
    }
  };
  await Promise.all(Array.from({ length: n }, caller));
  await closed;
  return { latencies, seconds: w.durationMs / 1000, errors, firstError };
}
