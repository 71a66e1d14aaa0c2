/** The ledger bench's results file: bench/results/latest.json (latest-quick.json for a smoke run). */
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CFG, QUICK } from "./config.js";

const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));

function gitCommit(): string | undefined {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: benchDir, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {
    return undefined;
  }
}

/** Run facts for the results file: machine, load, commit, settings. */
export function runMeta(totalSeconds: number) {
  return {
    date: new Date().toISOString(),
    quick: QUICK,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    loadAvgAtEnd: os.loadavg(),
    gitCommit: gitCommit(),
    totalSeconds,
    config: CFG,
    notes:
      "Server in the main thread; load generators in a worker thread unless placement=inproc. Latencies in ms. mainUsPerOp = server event-loop busy µs per op; cpuUsPerOp = whole-process CPU µs per op; foreignCores = cores used by other processes during the window.",
  };
}

/** Writes the results (bigints as strings); returns the path relative to the repository. */
export function writeResults(out: object): string {
  const dir = join(benchDir, "results");
  mkdirSync(dir, { recursive: true });
  // A smoke run does not overwrite the full run's numbers.
  const file = QUICK ? "latest-quick.json" : "latest.json";
  writeFileSync(join(dir, file), JSON.stringify(out, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n");
  return join("bench", "results", file);
}
