/**
 * Where does a preapproved CC transfer's time go? Engine-only sends (Ledger.submit in process,
 * proto conversion included) at a fixed concurrency under the V8 sampling profiler; prints the
 * top functions by self time and writes the raw profile.
 *
 *   npx tsx bench/cc/profile-cc.ts [concurrency=64] [seconds=5] [engine|grpc|json]
 *
 * `grpc`/`json` send through the public API from a worker thread (as the bench does) and profile
 * the server's main thread.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { submissionFromProto } from "../../src/api/convert/commands-proto.js";
import { startBenchServer } from "../lib/setup.js";
import { preapprovedSend } from "./cc-commands.js";
import { ccNetwork } from "./cc-network.js";
import { runInWorker, stopCcWorker } from "./cc-load.js";

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const concurrency = Number(process.argv[2] ?? 64);
const seconds = Number(process.argv[3] ?? 5);
const mode = process.argv[4] ?? "engine";
const runId = Date.now().toString(36);
const bs = await startBenchServer(100_000);
const net = await ccNetwork(bs.server, runId);
const { parties, token } = await net.actors("prof", concurrency);
const holdings: string[] = [];
for (const p of parties) holdings.push(...(await net.holdings(p, 1, "1000000")));
const user = `prof-${runId}`;

let k = 0;
let done = 0;
async function load(ms: number) {
  const to = performance.now() + ms;
  await Promise.all(
    parties.map(async (sender, i) => {
      while (performance.now() < to) {
        const sub = await submissionFromProto(preapprovedSend(net.context, sender, holdings[i], "0.0001", `${runId}-${k++}`).commands, user, bs.server.api.registry, bs.server.api.store);
        const out = await bs.server.api.ledger.submit(sub);
        if (out.kind !== "committed") throw out.error;
        const created = out.transaction.nodes.find((n) => n.kind === "create" && n.templateId.endsWith(":Splice.Amulet:Amulet") && (n.payload as { owner: string }).owner === sender);
        holdings[i] = created!.kind === "create" ? created!.contractId : "";
        done++;
      }
    }),
  );
}

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 200 });
let elapsed: number;
let profile: Profile;
if (mode === "engine") {
  await load(1000);
  await session.post("Profiler.start");
  done = 0;
  const t0 = performance.now();
  await load(seconds * 1000);
  elapsed = (performance.now() - t0) / 1000;
  profile = ((await session.post("Profiler.stop")) as unknown as { profile: Profile }).profile;
} else {
  let t0 = 0;
  const task = {
    kind: "send" as const,
    grpcUrl: bs.grpcUrl,
    httpUrl: mode === "json" ? bs.httpUrl : undefined,
    token,
    context: net.context,
    senders: parties.map((party, i) => ({ party, holding: holdings[i] })),
    amount: "0.0001",
    warmupMs: 1000,
    durationMs: seconds * 1000,
    idPrefix: `${runId}-w`,
  };
  const r = await runInWorker(task, (m) => {
    if (m === "start") {
      t0 = performance.now();
      void session.post("Profiler.start");
    }
  });
  elapsed = (performance.now() - t0) / 1000;
  profile = ((await session.post("Profiler.stop")) as unknown as { profile: Profile }).profile;
  done = r.latencies.length;
  await stopCcWorker();
}
console.log(`${mode}: ${done} transfers in ${elapsed.toFixed(2)} s = ${(done / elapsed).toFixed(0)}/s at ${concurrency}`);
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
let total = 0;
profile.samples.forEach((id, i) => {
  const t = profile.timeDeltas[i] ?? 0;
  total += t;
  const f = byId.get(id)!.callFrame;
  const key = `${f.functionName || "(anon)"} ${f.url.replace(/.*\/main\//, "")}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + t);
});
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 45);
for (const [k2, t] of top) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${(t / 1000 / done * 1000).toFixed(1).padStart(6)} µs/op  ${k2}`);
const out = join(tmpdir(), "ccwallet-cc.cpuprofile");
writeFileSync(out, JSON.stringify(profile));
console.log(`raw profile: ${out}`);
await bs.stop();
