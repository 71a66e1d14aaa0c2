/**
 * One benchmark point, repeated, for quick before/after comparisons while tuning:
 *
 *   npx tsx bench/point.ts <op> [concurrency=64] [seconds=3] [repeats=3]
 *   npx tsx bench/point.ts open-grpc-submit [rate=500] [seconds=6] [repeats=2]
 *
 * `op` is a load-generator op (grpc-* = Connect client, grpcjs-* = grpc-js client, json-*; *-submit
 * or *-echo). Echo ops hit a bare echo server: POINT_ECHO=connect (default), grpcjs or native.
 * POINT_GRPC=connect makes the ledger server answer plain gRPC with the Connect adapter. Prints throughput, latency and server/process CPU per op per repeat.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { runTaskIn, stopWorker, type LoadResult, type Op } from "./lib/loadgen.js";
import { Probe } from "./lib/probe.js";
import { startBenchServer, startEchoServers } from "./lib/setup.js";
import { fmt, runStats } from "./lib/stats.js";

const arg = process.argv[2] ?? "grpc-submit";
const open = arg.startsWith("open-");
const op = (open ? arg.slice(5) : arg) as Op;
const echoServer = process.env.POINT_ECHO ?? "connect";
const level = Number(process.argv[3] ?? (open ? 500 : 64));
const seconds = Number(process.argv[4] ?? (open ? 6 : 3));
const repeats = Number(process.argv[5] ?? (open ? 2 : 3));

// POINT_GRPC=connect: the server answers plain gRPC with the Connect adapter instead of natively.
const bs = await startBenchServer(10_000, { grpcTransport: process.env.POINT_GRPC === "connect" ? "connect" : "native" });
const echo = op.includes("echo") ? await startEchoServers() : undefined;
const pu = await bs.partyUser(`point-${Date.now().toString(36)}`);
const target = {
  grpcUrl: !echo ? bs.grpcUrl : echoServer === "grpcjs" ? echo.grpcJsUrl : echoServer === "native" ? echo.nativeUrl : echo.grpcUrl,
  httpUrl: echo?.httpUrl ?? bs.httpUrl,
  token: pu.token,
  party: pu.party,
};
for (let i = 0; i < repeats; i++) {
  const probe = new Probe();
  const idPrefix = `point-${Date.now().toString(36)}-${i}`;
  const task = open
    ? { kind: "open" as const, op, target, ratePerSec: level, warmupMs: 1000, durationMs: seconds * 1000, idPrefix }
    : { kind: "closed" as const, op, target, concurrency: level, warmupMs: 750, durationMs: seconds * 1000, idPrefix };
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const r = await runTaskIn<LoadResult>("worker", task, probe.mark);
  loop.disable();
  const s = runStats(r.latencies, r.seconds, r.errors);
  const pr = probe.result!;
  console.log(
    `${arg}${echo ? ` (${echoServer} server)` : ""} ${open ? `@${level}/s` : `${level} cl.`}: ${fmt(s.perSec).padStart(7)}/s  p50 ${fmt(s.p50, 2)}  p90 ${fmt(s.p90, 2)}  p99 ${fmt(s.p99, 2)} ms` +
      `  main ${fmt((pr.mainActiveMs * 1000) / s.n, 0)} µs/op (cpu ${fmt(((pr.mainCpuMs ?? NaN) * 1000) / s.n, 0)})  process cpu ${fmt((pr.processCpuMs * 1000) / s.n, 0)} µs/op  other-procs ${fmt(pr.foreignCores, 2)}` +
      `  server event-loop delay p99 ${fmt(loop.percentile(99) / 1e6, 1)} max ${fmt(loop.max / 1e6, 1)} ms` +
      (r.errors ? `  ERRORS ${r.errors}: ${r.firstError}` : ""),
  );
}
await stopWorker();
await echo?.stop();
await bs.stop();
process.exit(0);
