/**
 * Where does the server's time go? Profiles the server's main thread (V8 sampling profiler via
 * the inspector) during a steady closed-loop load from a worker thread, then attributes every
 * sample to the nearest enclosing bucket (store flush, canton-json, Connect, GC, idle, ...).
 *
 *   npx tsx bench/profile.ts [grpc-submit|json-submit|grpc-echo] [concurrency=64] [seconds=5]
 *   npx tsx bench/profile.ts read-grpc|read-grpcjs [completions=100000]   (catch-up CompletionStream, S4;
 *   Connect or grpc-js client)
 *
 * Writes the raw profile to $TMPDIR/ccwallet-<op>.cpuprofile (open it in Chrome DevTools).
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTaskIn, stopWorker, type LoadResult, type Op, type ReadResult } from "./lib/loadgen.js";
import { startBenchServer, startEchoServers } from "./lib/setup.js";

interface CallFrame { functionName: string; url: string }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const BUCKETS: [string, (f: CallFrame) => boolean][] = [
  ["store flush (SQLite writes + fsync, encodeRecord)", (f) => /sqlite-store/.test(f.url) && f.functionName === "flush"],
  ["store reads (user/party/dedup lookups)", (f) => /sqlite\/(sqlite-store|directory|rows)/.test(f.url) && ["oneRecord", "allRecords", "user", "party", "acceptedCommand", "completions"].includes(f.functionName)],
  ["decodeRecord", (f) => f.functionName === "decodeRecord"],
  ["encoder.transaction (response)", (f) => /ledger-proto/.test(f.url) && f.functionName === "transaction"],
  ["completionToProto (incl. status details → Any)", (f) => f.functionName === "completionToProto"],
  ["canton-json encode/decode", (f) => /api\/http\/(canton-json|daml-json-codec)/.test(f.url)],
  ["submissionFromProto", (f) => f.functionName === "submissionFromProto"],
  ["authenticate", (f) => f.functionName === "authenticate"],
  ["interpret", (f) => f.functionName === "interpret"],
  ["ids (randomHex/newUpdateId)", (f) => /ledger\/ids/.test(f.url)],
  ["Ledger.run (rest)", (f) => /ledger\/engine/.test(f.url)],
  ["stream tail (async generators)", (f) => /ledger\/streams/.test(f.url)],
  ["gateway (rest)", (f) => /api\/http\/gateway/.test(f.url)],
  ["service impl (rest)", (f) => /api\/grpc\//.test(f.url)],
  ["protobuf (create/toBinary/fromBinary)", (f) => /@bufbuild\/protobuf/.test(f.url)],
  ["Connect", (f) => /@connectrpc/.test(f.url)],
  ["AbortController/DOMException", (f) => /abort_controller|domexception/.test(f.url)],
  ["node http/http2/net/streams", (f) => /node:(_http|http|net|internal\/(http|http2|streams|stream_base))/.test(f.url)],
  ["GC", (f) => f.functionName === "(garbage collector)"],
  ["idle", (f) => f.functionName === "(idle)"],
];

function buckets(p: Profile, ops: number): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const acc = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const t = p.timeDeltas[i] ?? 0;
    total += t;
    let name = "other";
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const b = BUCKETS.find(([, m]) => m(byId.get(cur!)!.callFrame));
      if (b) {
        name = b[0];
        break;
      }
    }
    acc.set(name, (acc.get(name) ?? 0) + t);
  });
  return [...acc]
    .sort((a, b) => b[1] - a[1])
    .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(6)} ms  ${(t / ops).toFixed(1).padStart(7)} µs/op  ${k}`)
    .join("\n");
}

const op = (process.argv[2] ?? "grpc-submit") as Op | "read-grpc" | "read-grpcjs";
if (op === "read-grpc" || op === "read-grpcjs") {
  const n = Number(process.argv[3] ?? 100_000);
  const bs = await startBenchServer(10_000);
  const { party, user, token } = await bs.partyUser("profile-read");
  const recordTime = BigInt(Date.now()) * 1000n;
  for (let i = 0; i < n; i += 1000) {
    await Promise.all(
      Array.from({ length: Math.min(1000, n - i) }, (_, k) =>
        bs.server.store.commit({
          kind: "rejection",
          completion: {
            commandId: `c-${i + k}`,
            userId: user,
            actAs: [party],
            submissionId: `s-${i + k}`,
            deduplication: { kind: "none" },
            recordTime,
            status: { code: 6, message: "DUPLICATE_COMMAND(10,s): duplicate", errorCode: "DUPLICATE_COMMAND", category: 10, context: { changeId: "x" }, resources: [], correlationId: `s-${i + k}`, definiteAnswer: false },
          },
        }),
      ),
    );
  }
  const target = { grpcUrl: bs.grpcUrl, httpUrl: bs.httpUrl, token, party };
  // Boot the worker (and warm its client) outside the profile.
  await runTaskIn<ReadResult>("worker", { kind: op, target, userId: user, beginExclusive: "0", expect: 1 });
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  const r = await runTaskIn<ReadResult>("worker", { kind: op, target, userId: user, beginExclusive: "0", expect: n });
  const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
  console.log(`${op}: ${r.count} completions in ${r.seconds.toFixed(2)} s; server main thread by bucket (per item):`);
  console.log(buckets(profile, r.count));
  writeFileSync(join(tmpdir(), `ccwallet-${op}.cpuprofile`), JSON.stringify(profile));
  await stopWorker();
  await bs.stop();
  process.exit(0);
}
const concurrency = Number(process.argv[3] ?? 64);
const seconds = Number(process.argv[4] ?? 5);
const bs = await startBenchServer(10_000);
const echo = (op as string).endsWith("echo") ? await startEchoServers() : undefined;
const pu = await bs.partyUser(`profile-${Date.now().toString(36)}`);
const target = { grpcUrl: echo?.grpcUrl ?? bs.grpcUrl, httpUrl: echo?.httpUrl ?? bs.httpUrl, token: pu.token, party: pu.party };
// Warm-up (JIT) before profiling.
await runTaskIn<LoadResult>("worker", { kind: "closed", op, target, concurrency, warmupMs: 0, durationMs: 1500, idPrefix: "warm" });
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 200 });
await session.post("Profiler.start");
const r = await runTaskIn<LoadResult>("worker", { kind: "closed", op, target, concurrency, warmupMs: 0, durationMs: seconds * 1000, idPrefix: "prof" });
const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
const ops = r.latencies.length;
console.log(`${op}, ${concurrency} clients (worker), ${(ops / seconds).toFixed(0)}/s; server main thread by bucket:`);
console.log(buckets(profile, ops));
const out = join(tmpdir(), `ccwallet-${op}.cpuprofile`);
writeFileSync(out, JSON.stringify(profile));
console.log(`profile: ${out}`);
await echo?.stop();
await bs.stop();
process.exit(0);
