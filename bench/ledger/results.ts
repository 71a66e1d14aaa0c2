/** The ledger bench's results file: bench/results/latest.json (latest-quick.json for a smoke run). */
import os from "node:os";
import { inRepo, writeResultsFile } from "../lib/results-file.js";
import { gitCommit } from "../lib/run-facts.js";
import { CFG, QUICK } from "./config.js";

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

/** Writes the results; returns the path relative to the repository. */
export function writeResults(out: object): string {
  return inRepo(writeResultsFile("latest", QUICK, out));
}
