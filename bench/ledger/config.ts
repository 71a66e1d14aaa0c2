/** Run settings of the ledger bench (issue #2): full run, or a short smoke run with BENCH_QUICK=1. */

export const QUICK = process.env.BENCH_QUICK === "1";
export const CFG = QUICK
  ? { warmupMs: 250, durationMs: 800, echoMs: 500, rawSeconds: 0.2, openWarmupMs: 250, openMs: 1500, s3Count: 40, s4Rows: 10_000 }
  : { warmupMs: 1000, durationMs: 4000, echoMs: 2500, rawSeconds: 1, openWarmupMs: 1000, openMs: 6000, s3Count: 300, s4Rows: 100_000 };
/** Closed-loop client counts of S1. */
export const CONCURRENCY = [1, 8, 64] as const;
/** Commands per second offered in S2's open loop. */
export const OPEN_RATE = 500;
/** Prefix of command ids and party hints, so reruns against a kept data dir do not collide. */
export const runId = Date.now().toString(36);
export { log } from "../lib/log.js";
