/**
 * Probe (not part of `npm run bench`): how responsive the node stays while many update streams
 * catch up from offset 0 on a ledger with history. Loads the ledger, then opens S GetUpdates
 * streams (grpc-js, separate process) and times GET /livez meanwhile.
 *
 *   npx tsx bench/streams/catch-up-probe.ts [streams=300] [loadSeconds=6]
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { performance } from "node:perf_hooks";
import { runTaskIn, stopWorker } from "../lib/loadgen.js";
import { startBenchServer } from "../lib/setup.js";
import { fmt } from "../lib/stats.js";

const streams = Number(process.argv[2] ?? 300);
const loadSeconds = Number(process.argv[3] ?? 6);
const bs = await startBenchServer(10_000, {}, {});
const load = await bs.partyUser(`load-${Date.now().toString(36)}`);
const reader = await bs.partyUser(`reader-${Date.now().toString(36)}`);
const target = { grpcUrl: bs.grpcUrl, httpUrl: bs.httpUrl, token: load.token, party: load.party };
await runTaskIn("worker", { kind: "closed", op: "grpcjs-submit", target, concurrency: 32, warmupMs: 0, durationMs: loadSeconds * 1000, idPrefix: `probe-${Date.now().toString(36)}` });
await stopWorker();
console.log(`ledger end ${await bs.server.api.store.ledgerEnd()}`);

const def = protoLoader.loadSync(["com/daml/ledger/api/v2/update_service.proto"], { includeDirs: ["proto"], longs: String, enums: String, defaults: true, oneofs: true });
const v2 = (grpc.loadPackageDefinition(def) as unknown as { com: { daml: { ledger: { api: { v2: { UpdateService: grpc.ServiceClientConstructor } } } } } }).com.daml.ledger.api.v2;
const client = new v2.UpdateService(bs.grpcUrl.replace(/^http:\/\//, ""), grpc.credentials.createInsecure(), { "grpc.max_concurrent_streams": 100_000 });
const meta = new grpc.Metadata();
meta.set("authorization", `Bearer ${reader.token}`);
// A stream has caught up when its first message (the reader sees no transactions: an offset checkpoint) arrives.
const caughtUp = new Set<number>();
const calls: grpc.ClientReadableStream<unknown>[] = [];
const opened = performance.now();
for (let i = 0; i < streams; i++) {
  const filter = { filtersByParty: { [reader.party]: { cumulative: [{ wildcardFilter: {} }] } } };
  const s = (client as unknown as { getUpdates: (r: unknown, m: grpc.Metadata) => grpc.ClientReadableStream<unknown> }).getUpdates({ beginExclusive: 0, updateFormat: { includeTransactions: { eventFormat: filter, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } } }, meta);
  s.on("data", () => caughtUp.add(i));
  s.on("error", () => undefined);
  calls.push(s);
}
const latencies: number[] = [];
while (performance.now() - opened < 10_000 && caughtUp.size < streams) {
  const t = performance.now();
  await fetch(`${bs.httpUrl}/livez`);
  latencies.push(performance.now() - t);
  await new Promise((r) => setTimeout(r, 20));
}
latencies.sort((a, b) => a - b);
console.log(`${streams} update streams from offset 0: ${caughtUp.size} caught up after ${fmt((performance.now() - opened) / 1000, 1)} s; /livez meanwhile: ${latencies.length} calls, p50 ${fmt(latencies[Math.floor(latencies.length / 2)], 1)} ms, max ${fmt(latencies[latencies.length - 1], 1)} ms`);
for (const c of calls) c.cancel();
client.close();
await bs.stop();
process.exit(0);
