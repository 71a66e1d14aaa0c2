import { startEchoServers } from "./lib/setup.js";
import { runTaskIn, type LoadResult } from "./lib/loadgen.js";
import { runStats, fmt } from "./lib/stats.js";
const echo = await startEchoServers();
const target = { grpcUrl: echo.grpcUrl, httpUrl: echo.httpUrl, token: "", party: "" };
for (const placement of ["inproc", "worker"] as const) for (const c of [1, 8, 64]) {
  const r = await runTaskIn<LoadResult>(placement, { kind: "closed", op: "grpc-echo", target, concurrency: c, warmupMs: 300, durationMs: 1500, idPrefix: "e" });
  const s = runStats(r.latencies, r.seconds, r.errors);
  console.log(placement, c, fmt(s.perSec), fmt(s.p50, 2), fmt(s.p99, 2), r.firstError);
}
await echo.stop();
