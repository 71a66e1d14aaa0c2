/** The measured window of a load run: warm-up first, then the window the numbers come from. */
import { performance } from "node:perf_hooks";
import type { Mark } from "./task-worker.js";

/**
 * Calls `mark` when the measured window opens and closes (the caller samples CPU there);
 * `closed` resolves once the closing mark has been given (await it before reporting).
 */
export function measureWindow(t0: number, warmupMs: number, durationMs: number, mark: Mark): { from: number; to: number; closed: Promise<void> } {
  setTimeout(() => mark("start"), Math.max(0, t0 + warmupMs - performance.now()));
  const closed = new Promise<void>((resolve) =>
    setTimeout(() => {
      mark("end");
      resolve();
    }, Math.max(0, t0 + warmupMs + durationMs - performance.now())),
  );
  return { from: t0 + warmupMs, to: t0 + warmupMs + durationMs, closed };
}
