/** Latency samples -> percentiles and throughput; small table printer. */

export interface LatencyStats {
  readonly n: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export interface RunStats extends LatencyStats {
  /** Completed operations per second over the measured window. */
  readonly perSec: number;
  readonly errors: number;
  readonly seconds: number;
}

/** Nearest-rank percentile of an ascending-sorted array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function latencyStats(samples: ArrayLike<number>): LatencyStats {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (let i = 0; i < sorted.length; i++) sum += sorted[i];
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    mean: sorted.length ? sum / sorted.length : NaN,
  };
}

export function runStats(samples: ArrayLike<number>, seconds: number, errors = 0): RunStats {
  return { ...latencyStats(samples), perSec: samples.length / seconds, errors, seconds };
}

export function fmt(x: number | undefined, digits = 1): string {
  if (x === undefined || Number.isNaN(x)) return "-";
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString("en-US");
  return x.toFixed(digits);
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
