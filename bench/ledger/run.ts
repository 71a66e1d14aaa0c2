/**
 * ccwallet ledger benchmark (issue #2): `npx tsx bench/ledger/run.ts` (about 3 min) or with
 * `BENCH_QUICK=1` (about 45 s smoke run); the first of the three benches in `npm run bench`.
 * Loopback only (127.0.0.1), bounded, stops by itself.
 *
 * The server runs in this process (main thread). Load generators run in one worker thread
 * ("worker": own event loop, so on 2 cores the client gets its own core, as a separate client
 * process would, without its CPU being charged to the server's event loop); the 64-client points
 * are repeated with the client on the server's event loop ("inproc") for comparison. gRPC points
 * run with two clients: Connect (@connectrpc/connect-node) and @grpc/grpc-js. Raw baselines
 * (fsync, bare SQLite, unary echo on ccwallet's native gRPC handler, on a Connect server and on a
 * grpc-js server, HTTP+JSON echo, a pre-encoded completion flood for the catch-up read, and the
 * ledger with gRPC served by Connect as before) are measured in the same run, each next to the
 * point it explains, so ratios survive a noisy shared machine.
 *
 * Scenarios, in order (one file each): raw-baselines, engine-layer, throughput (S1),
 * latency-at-rate (S2), completion-latency (S3), catch-up (S4). Per point it prints throughput,
 * p50/p90/p99, server event-loop busy µs/op and main-thread CPU µs/op, process CPU µs/op, cores
 * used by other processes meanwhile, and the group-commit shape (commits per fsync). Then a
 * summary table (target vs measured vs baseline); also written to bench/results/latest.json
 * (latest-quick.json for a smoke run).
 * `npx tsx bench/profile.ts <op>` breaks the server's time down by component; `bench/point.ts`
 * repeats one point for before/after comparisons.
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { stopWorker } from "../lib/loadgen.js";
import { headerLine } from "../lib/run-facts.js";
import { startBenchServer, startEchoServers } from "../lib/setup.js";
import { fmt, table } from "../lib/stats.js";
import { catchUp } from "./catch-up.js";
import { completionDelivery } from "./completion-latency.js";
import { OPEN_RATE, QUICK, log, runId } from "./config.js";
import { engineLayer } from "./engine-layer.js";
import { latencyAtRate } from "./latency-at-rate.js";
import { PointRecorder, type Point } from "./points.js";
import { rawBaselines } from "./raw-baselines.js";
import { runMeta, writeResults } from "./results.js";
import { ratios, summaryRows, type Measured } from "./summary.js";
import { targetsFor } from "./targets.js";
import { throughput } from "./throughput.js";

function header(): void {
  log(headerLine("ccwallet bench", QUICK));
  log(`columns: throughput; latency percentiles; main = server event-loop busy time per op (includes the client when inproc);`);
  log(`         cpu = whole-process CPU per op (server + worker client); other-procs = cores used by other processes meanwhile`);
}

/** Every scenario in order: the API scenarios on one server (with its echo baselines), S4 on its own. */
async function measure(rec: PointRecorder): Promise<Measured> {
  const raw = rawBaselines(os.tmpdir());
  const bs = await startBenchServer(10_000);
  rec.countCommitsOf(bs);
  const echo = await startEchoServers();
  const s1User = await bs.partyUser(`s1-${runId}`);
  const targets = targetsFor(bs, echo, s1User);
  const engine = await engineLayer(rec, bs, s1User.party, s1User.user);
  const s1 = await throughput(rec, targets);
  const s2 = await latencyAtRate(rec, targets);
  const s3 = await completionDelivery(bs);
  await echo.stop();
  await bs.stop();
  const s4 = await catchUp();
  return { raw, engine, s1, s2, s3, s4 };
}

function foreignCores(points: readonly Point[]): { avg: number; max: number } {
  const v = points.map((p) => p.foreignCores).filter((x): x is number => x !== undefined);
  return v.length ? { avg: v.reduce((a, b) => a + b, 0) / v.length, max: Math.max(...v) } : { avg: NaN, max: NaN };
}

async function main(): Promise<void> {
  const started = performance.now();
  header();
  const rec = new PointRecorder();
  const m = await measure(rec);
  const summary = summaryRows(m);
  log("\n== Summary (target vs measured vs baseline measured in the same run; ratio = measured / baseline)");
  log(
    table(
      ["scenario", "target", "measured", "baseline (same run)", "ratio", "ok"],
      summary.map((r) => [r.scenario, r.target, r.measured, r.baseline, r.ratio, r.pass === undefined ? "" : r.pass ? "PASS" : "FAIL"]),
    ),
  );
  const other = foreignCores(rec.points);
  log(`\nother processes used on average ${fmt(other.avg, 2)} cores during the load points (max ${fmt(other.max, 2)})`);
  const totalSeconds = (performance.now() - started) / 1000;
  log(`total ${totalSeconds.toFixed(0)} s`);
  const { raw, engine, s2, s3, s4 } = m;
  const file = writeResults({
    meta: runMeta(totalSeconds),
    summary,
    raw,
    points: rec.points,
    s2: { offeredPerSec: OPEN_RATE, grpc: s2.grpc, grpcjs: s2.grpcjs, json: s2.json, echo: s2.echo, echoGrpcjs: s2.echoGrpcjs },
    s3,
    s4,
    engine,
    ratios: ratios(m.s1),
  });
  log(`wrote ${file}`);
  await stopWorker();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
