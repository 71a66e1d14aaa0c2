/**
 * A bench's result rows, by key: each printed as one line when it is measured, and kept for the
 * summary table and the results file. Columns: description, throughput, latency percentiles, and
 * for load points what one operation cost (per-op.ts).
 */
import os from "node:os";
import type { LoopsResult } from "./closed-loops.js";
import { log } from "./log.js";
import { perOp, type PerOpCosts } from "./per-op.js";
import type { ProbeResult } from "./probe.js";
import { writeResultsFile } from "./results-file.js";
import { fmt, runStats, type LatencyStats, type RunStats } from "./stats.js";

export interface Row extends Partial<PerOpCosts> {
  readonly what: string;
  readonly stats: RunStats | LatencyStats;
  readonly perSec?: number;
  readonly extra?: Record<string, number>;
}

export interface RowColumns {
  /** Width of the description column. */
  readonly whatWidth: number;
  /** Show and keep the server thread's CPU per op next to its busy time (process CPU is then labelled "proc"). */
  readonly mainCpu: boolean;
}

/** `p50 …  p90 …  p99 … ms`, each figure right-aligned to `width`. */
export function percentiles(s: LatencyStats, width: number): string {
  return `p50 ${fmt(s.p50, 2).padStart(width)}  p90 ${fmt(s.p90, 2).padStart(width)}  p99 ${fmt(s.p99, 2).padStart(width)} ms`;
}

/** `  ERRORS n` when a load run had errors, else nothing. */
export const errorsNote = (s: LatencyStats | RunStats): string => ("errors" in s && s.errors ? `  ERRORS ${s.errors}` : "");

function costsNote(r: Row, mainCpu: boolean): string {
  if (r.mainUsPerOp === undefined) return "";
  const main = `main ${fmt(r.mainUsPerOp, 0).padStart(5)} µs/op`;
  const rest = `${fmt(r.cpuUsPerOp, 0).padStart(5)} µs/op  other-procs ${fmt(r.foreignCores, 2)} cores`;
  return mainCpu ? `  ${main} (cpu ${fmt(r.mainCpuUsPerOp, 0)})  proc ${rest}` : `  ${main}  cpu ${rest}`;
}

export function rowLine(r: Row, c: RowColumns): string {
  const rate = r.perSec !== undefined ? `${fmt(r.perSec).padStart(7)}/s` : " ".repeat(9);
  return `  ${r.what.padEnd(c.whatWidth)} ${rate}  ${percentiles(r.stats, 7)}${costsNote(r, c.mainCpu)}${errorsNote(r.stats)}`;
}

export class ResultRows {
  readonly rows: Record<string, Row> = {};

  constructor(private readonly columns: RowColumns) {}

  get(key: string): Row | undefined {
    return this.rows[key];
  }

  /** For summary tables: a row's throughput, `-` when missing. */
  perSec(key: string): string {
    return fmt(this.rows[key]?.perSec);
  }

  /** For summary tables: a row's latency percentile, `1.23 ms`. */
  ms(key: string, q: "p50" | "p90" | "p99" = "p50"): string {
    return `${fmt(this.rows[key]?.stats[q], 2)} ms`;
  }

  /** Keeps a row without printing it; only the columns this bench shows are kept. */
  keep(key: string, r: Row): void {
    this.rows[key] = this.columns.mainCpu ? r : { ...r, mainCpuUsPerOp: undefined };
  }

  print(key: string, r: Row): void {
    this.keep(key, r);
    log(rowLine(r, this.columns));
  }

  /**
   * A load run's row: throughput and latencies from its result, per-op costs from the probe of its
   * window; then `note` (a line of detail) and the run's first error, if any.
   */
  printLoad(key: string, what: string, r: LoopsResult, probe: ProbeResult | undefined, extra?: Record<string, number>, note?: string): void {
    const stats = runStats(r.latencies, r.seconds, r.errors);
    this.print(key, { what, stats, perSec: stats.perSec, ...perOp(probe, stats.n), ...(extra ? { extra } : {}) });
    if (note) log(note);
    if (r.firstError) log(`    first error: ${r.firstError}`);
  }

  /** bench/results/<name>(-quick).json: when, which node, how many cores, and the rows. */
  write(name: string, quick: boolean): string {
    return writeResultsFile(name, quick, { at: new Date().toISOString(), quick, node: process.version, cpus: os.cpus().length, rows: this.rows });
  }
}
