/**
 * What idle streams cost the node: gRPC submit-and-wait throughput (closed loop, 32 clients) with
 * no completion stream open, then with N idle ones (another party's, held by a separate process),
 * in the same run. Issue #10's target: 1,000 idle streams cost < 10 % of the throughput.
 *
 *   npx tsx bench/streams/run.ts [streams=1000] [seconds=5]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { runTaskIn, stopWorker, type LoadResult } from "../lib/loadgen.js";
import { startBenchServer } from "../lib/setup.js";
import { fmt, runStats } from "../lib/stats.js";

const streams = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? (process.env.BENCH_QUICK ? 2 : 5));
const config = join(mkdtempSync(join(tmpdir(), "ccwallet-streams-")), "config.json");
writeFileSync(config, JSON.stringify({ ledger: { maxStreams: streams + 100, maxStreamsPerUser: streams + 100 }, automation: { collectRewards: false, mergeHoldings: false, renewPreapprovals: false } }));
const bs = await startBenchServer(10_000, {}, { CCWALLET_CONFIG: config });
const load = await bs.partyUser(`load-${Date.now().toString(36)}`);
const idle = await bs.partyUser(`idle-${Date.now().toString(36)}`);

async function measure(label: string, durationS = seconds): Promise<number> {
  const target = { grpcUrl: bs.grpcUrl, httpUrl: bs.httpUrl, token: load.token, party: load.party };
  const r = await runTaskIn<LoadResult>("worker", { kind: "closed", op: "grpcjs-submit", target, concurrency: 32, warmupMs: 750, durationMs: durationS * 1000, idPrefix: `${label.replace(/[^A-Za-z0-9]+/g, "-")}-${Date.now().toString(36)}` });
  const s = runStats(r.latencies, r.seconds, r.errors);
  console.log(`${label.padEnd(28)} ${fmt(s.perSec).padStart(7)}/s  p50 ${fmt(s.p50, 2)}  p99 ${fmt(s.p99, 2)} ms  errors ${r.errors}`);
  return s.perSec;
}

/** Runs `work` while a separate process holds `streams` idle completion streams open. */
async function withIdleStreams<T>(work: () => Promise<T>): Promise<T> {
  const holder = spawn(process.execPath, ["--import", "tsx", "bench/streams/idle-streams-client.ts", `127.0.0.1:${bs.server.grpcPort}`, idle.token, idle.party, String(streams)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: holder.stdout! });
  const exited = new Promise<never>((_, reject) => holder.once("exit", (code) => reject(new Error(`the stream holder exited (${code})`))));
  exited.catch(() => undefined);
  const next = () => Promise.race([new Promise<string>((resolve) => lines.once("line", resolve)), exited]);
  console.log(`  holder: ${await next()} (server counts ${bs.server.api.streams.open} open)`);
  const result = await work();
  holder.stdin!.write("?\n");
  console.log(`  holder: ${await next()}`);
  const gone = new Promise((resolve) => holder.once("exit", resolve));
  holder.stdin!.end();
  await gone;
  return result;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

// Windows alternate (without, with, without, ...) and the medians are compared: on 2 cores one
// 5 s window can be 20 % off its neighbour, and a fixed order credits warm-up to whichever runs first.
await measure("warm-up (not counted)");
const rounds = process.env.BENCH_QUICK ? 1 : 3;
const without: number[] = [];
const withIdle: number[] = [];
for (let i = 0; i < rounds; i++) {
  without.push(await measure("no idle streams"));
  withIdle.push(await withIdleStreams(() => measure(`${streams} idle completion streams`)));
}
without.push(await measure("no idle streams"));
console.log(
  `ratio with/without idle streams: ${fmt(median(withIdle) / median(without), 2)} (target >= 0.90; medians of ${withIdle.length} and ${without.length} alternating windows: ${fmt(median(withIdle))}/s vs ${fmt(median(without))}/s)`,
);
await stopWorker();
await bs.stop();
