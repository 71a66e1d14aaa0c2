/**
 * One measured load point of the ledger bench: run it (closed or open loop, in the worker or on
 * the server's event loop), attach the server's CPU accounting and group-commit shape for its
 * window, print its line and keep it for the summary and results file.
 */
import type { BenchServer } from "../lib/setup.js";
import { runTaskIn, type LoadResult, type Op, type Placement, type Target } from "../lib/loadgen.js";
import { perOp, type PerOpCosts } from "../lib/per-op.js";
import { Probe, type ProbeResult } from "../lib/probe.js";
import { errorsNote, percentiles } from "../lib/result-rows.js";
import { fmt, runStats, type RunStats } from "../lib/stats.js";
import { CommitCounter, type CommitCount } from "./commit-counter.js";
import { CFG, OPEN_RATE, log, runId } from "./config.js";

export interface Point extends Partial<PerOpCosts> {
  readonly id: string;
  readonly what: string;
  readonly placement: Placement | "-";
  readonly concurrency?: number;
  readonly stats: RunStats;
  /** Group commit during the window: commits per flush (one fsync each), flushes per second. */
  readonly commitsPerFlush?: number;
  readonly flushesPerSec?: number;
  readonly extra?: Record<string, unknown>;
}

/** The window's per-op costs and, when the point talked to the ledger, its group-commit shape. */
export function pointCosts(p: ProbeResult | undefined, ops: number, commits?: CommitCount) {
  if (!p || ops === 0) return {};
  const group = commits && commits.flushes > 0 ? { commitsPerFlush: commits.commits / commits.flushes, flushesPerSec: commits.flushes / (p.wallMs / 1000) } : {};
  return { ...perOp(p, ops), ...group };
}

function printPoint(p: Point): void {
  const s = p.stats;
  log(
    `  ${p.what.padEnd(44)} ${p.placement.padEnd(6)} ${fmt(s.perSec).padStart(7)}/s  ${percentiles(s, 6)}` +
      `  main ${fmt(p.mainUsPerOp, 0).padStart(5)} µs/op (cpu ${fmt(p.mainCpuUsPerOp, 0).padStart(4)})  process cpu ${fmt(p.cpuUsPerOp, 0).padStart(5)} µs/op  other-procs ${fmt(p.foreignCores, 2)} cores` +
      (p.commitsPerFlush !== undefined ? `  group commit ${fmt(p.commitsPerFlush, 1)}/flush, ${fmt(p.flushesPerSec, 0)} flush/s` : "") +
      errorsNote(s),
  );
}

/** Every point of a run, in order; group commit is counted on the ledger given to countCommitsOf. */
export class PointRecorder {
  readonly points: Point[] = [];
  private counter: CommitCounter | undefined;

  countCommitsOf(bs: BenchServer): void {
    this.counter = new CommitCounter(bs);
  }

  /** Window marks for the probe and, when the point talks to the ledger, the commit counter. */
  marks(probe: Probe, withCommits: boolean) {
    const c = withCommits ? this.counter : undefined;
    if (c) c.result = undefined;
    return {
      mark: (m: "start" | "end") => {
        probe.mark(m);
        c?.mark(m);
      },
      commits: () => c?.result,
    };
  }

  record(p: Point): Point {
    this.points.push(p);
    printPoint(p);
    return p;
  }

  async closed(id: string, what: string, op: Op, target: Target, concurrency: number, placement: Placement, durationMs: number, sessions?: number): Promise<Point> {
    const probe = new Probe();
    const m = this.marks(probe, !op.endsWith("echo"));
    const r = await runTaskIn<LoadResult>(
      placement,
      { kind: "closed", op, target, concurrency, sessions, warmupMs: CFG.warmupMs, durationMs, idPrefix: `${runId}-${id}-${placement}` },
      m.mark,
    );
    const stats = runStats(r.latencies, r.seconds, r.errors);
    const p = this.record({ id, what, placement, concurrency, stats, ...pointCosts(probe.result, stats.n, m.commits()) });
    if (r.firstError) log(`    first error: ${r.firstError}`);
    return p;
  }

  async open(id: string, what: string, op: Op, target: Target, placement: Placement): Promise<Point> {
    const probe = new Probe();
    const m = this.marks(probe, !op.endsWith("echo"));
    const r = await runTaskIn<LoadResult>(
      placement,
      { kind: "open", op, target, ratePerSec: OPEN_RATE, warmupMs: CFG.openWarmupMs, durationMs: CFG.openMs, idPrefix: `${runId}-${id}` },
      m.mark,
    );
    const stats = runStats(r.latencies, r.seconds, r.errors);
    const extra = { offeredPerSec: OPEN_RATE, maxInFlight: r.maxInFlight };
    const p = this.record({ id, what, placement, stats, ...pointCosts(probe.result, stats.n, m.commits()), extra });
    log(`    offered ${OPEN_RATE}/s, max in flight ${r.maxInFlight}${r.firstError ? `, first error: ${r.firstError}` : ""}`);
    return p;
  }
}
