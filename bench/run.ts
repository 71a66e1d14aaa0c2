/**
 * ccwallet benchmark (issue #2): `npm run bench` (about 3 min) or `BENCH_QUICK=1 npm run bench`
 * (about 45 s smoke run). Loopback only (127.0.0.1), bounded, stops by itself.
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
 * Per point it prints throughput, p50/p90/p99, server event-loop busy µs/op and main-thread CPU
 * µs/op, process CPU µs/op,
 * cores used by other processes meanwhile, and the group-commit shape (commits per fsync).
 * Then a summary table (target vs measured vs baseline); also written to bench/results/latest.json
 * (latest-quick.json for a smoke run).
 * `npx tsx bench/profile.ts <op>` breaks the server's time down by component; `bench/point.ts`
 * repeats one point for before/after comparisons.
 */
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { submissionFromProto } from "../src/api/convert/commands-proto.js";
import type { CompletionRecord } from "../src/ledger/records.js";
import { grpcClients, grpcRequests, grpcTransport, iouCommands } from "./lib/clients.js";
import { measureWindow, runTaskIn, stopWorker, type LoadResult, type Op, type Placement, type ReadResult, type Target } from "./lib/loadgen.js";
import { Probe, type ProbeResult } from "./lib/probe.js";
import { fsyncRate, sqliteBaselines, sqliteReadCompletions } from "./lib/raw.js";
import { startBenchServer, startEchoServers, type BenchServer } from "./lib/setup.js";
import { fmt, latencyStats, runStats, table, type LatencyStats, type RunStats } from "./lib/stats.js";

const QUICK = process.env.BENCH_QUICK === "1";
const CFG = QUICK
  ? { warmupMs: 250, durationMs: 800, echoMs: 500, rawSeconds: 0.2, openWarmupMs: 250, openMs: 1500, s3Count: 40, s4Rows: 10_000 }
  : { warmupMs: 1000, durationMs: 4000, echoMs: 2500, rawSeconds: 1, openWarmupMs: 1000, openMs: 6000, s3Count: 300, s4Rows: 100_000 };
const CONCURRENCY = [1, 8, 64] as const;
const OPEN_RATE = 500;
const benchDir = dirname(fileURLToPath(import.meta.url));
const runId = Date.now().toString(36);

/**
 * Group-commit shape, observed from outside the store: every ledger-end notification is one
 * flush (one SQLite transaction, one fsync); the offsets it advances are the commits in it.
 */
class CommitCounter {
  flushes = 0;
  commits = 0;
  private last = 0n;
  private snap = { flushes: 0, commits: 0 };
  result: { flushes: number; commits: number } | undefined;
  constructor(bs: BenchServer) {
    void bs.server.store.ledgerEnd().then((e) => (this.last = e));
    bs.server.store.onLedgerEnd((end) => {
      this.flushes++;
      this.commits += Number(end - this.last);
      this.last = end;
    });
  }
  readonly mark = (m: "start" | "end"): void => {
    if (m === "start") this.snap = { flushes: this.flushes, commits: this.commits };
    else this.result = { flushes: this.flushes - this.snap.flushes, commits: this.commits - this.snap.commits };
  };
}
let counter: CommitCounter | undefined;

interface Point {
  readonly id: string;
  readonly what: string;
  readonly placement: Placement | "-";
  readonly concurrency?: number;
  readonly stats: RunStats;
  /** Server (main) thread busy time per op, µs; includes the client when inproc. */
  readonly mainUsPerOp?: number;
  /** Server (main) thread CPU per op, µs: unlike mainUsPerOp it does not grow when other processes take the core. */
  readonly mainCpuUsPerOp?: number;
  /** Whole-process CPU per op (server + client threads), µs. */
  readonly cpuUsPerOp?: number;
  readonly foreignCores?: number;
  /** Group commit during the window: commits per flush (one fsync each), flushes per second. */
  readonly commitsPerFlush?: number;
  readonly flushesPerSec?: number;
  readonly extra?: Record<string, unknown>;
}

const points: Point[] = [];
const log = (s = "") => process.stdout.write(s + "\n");

function perOp(p: ProbeResult | undefined, ops: number, commits?: { flushes: number; commits: number }) {
  if (!p || ops === 0) return {};
  const group = commits && commits.flushes > 0 ? { commitsPerFlush: commits.commits / commits.flushes, flushesPerSec: commits.flushes / (p.wallMs / 1000) } : {};
  const mainCpuUsPerOp = p.mainCpuMs !== undefined ? (p.mainCpuMs * 1000) / ops : undefined;
  return { mainUsPerOp: (p.mainActiveMs * 1000) / ops, mainCpuUsPerOp, cpuUsPerOp: (p.processCpuMs * 1000) / ops, foreignCores: p.foreignCores, ...group };
}

/** Window marks for the probe and, when the point talks to the ledger, the commit counter. */
function marks(probe: Probe, withCommits: boolean) {
  const c = withCommits ? counter : undefined;
  if (c) c.result = undefined;
  return {
    mark: (m: "start" | "end") => {
      probe.mark(m);
      c?.mark(m);
    },
    commits: () => c?.result,
  };
}

function printPoint(p: Point): void {
  const s = p.stats;
  log(
    `  ${p.what.padEnd(44)} ${p.placement.padEnd(6)} ${fmt(s.perSec).padStart(7)}/s  p50 ${fmt(s.p50, 2).padStart(6)}  p90 ${fmt(s.p90, 2).padStart(6)}  p99 ${fmt(s.p99, 2).padStart(6)} ms` +
      `  main ${fmt(p.mainUsPerOp, 0).padStart(5)} µs/op (cpu ${fmt(p.mainCpuUsPerOp, 0).padStart(4)})  process cpu ${fmt(p.cpuUsPerOp, 0).padStart(5)} µs/op  other-procs ${fmt(p.foreignCores, 2)} cores` +
      (p.commitsPerFlush !== undefined ? `  group commit ${fmt(p.commitsPerFlush, 1)}/flush, ${fmt(p.flushesPerSec, 0)} flush/s` : "") +
      (s.errors ? `  ERRORS ${s.errors}` : ""),
  );
}

async function closedPoint(id: string, what: string, op: Op, target: Target, concurrency: number, placement: Placement, durationMs: number, sessions?: number): Promise<Point> {
  const probe = new Probe();
  const m = marks(probe, !op.endsWith("echo"));
  const r = await runTaskIn<LoadResult>(
    placement,
    { kind: "closed", op, target, concurrency, sessions, warmupMs: CFG.warmupMs, durationMs, idPrefix: `${runId}-${id}-${placement}` },
    m.mark,
  );
  const stats = runStats(r.latencies, r.seconds, r.errors);
  const p: Point = { id, what, placement, concurrency, stats, ...perOp(probe.result, stats.n, m.commits()) };
  points.push(p);
  printPoint(p);
  if (r.firstError) log(`    first error: ${r.firstError}`);
  return p;
}

async function openPoint(id: string, what: string, op: Op, target: Target, placement: Placement): Promise<Point> {
  const probe = new Probe();
  const m = marks(probe, !op.endsWith("echo"));
  const r = await runTaskIn<LoadResult>(
    placement,
    { kind: "open", op, target, ratePerSec: OPEN_RATE, warmupMs: CFG.openWarmupMs, durationMs: CFG.openMs, idPrefix: `${runId}-${id}` },
    m.mark,
  );
  const stats = runStats(r.latencies, r.seconds, r.errors);
  const p: Point = { id, what, placement, stats, ...perOp(probe.result, stats.n, m.commits()), extra: { offeredPerSec: OPEN_RATE, maxInFlight: r.maxInFlight } };
  points.push(p);
  printPoint(p);
  log(`    offered ${OPEN_RATE}/s, max in flight ${r.maxInFlight}${r.firstError ? `, first error: ${r.firstError}` : ""}`);
  return p;
}

// ---------------------------------------------------------------------------------------------
// Raw baselines

function rawBaselines(dir: string) {
  log("\n== Raw baselines (same filesystem as the server's data dir)");
  const fsync = fsyncRate(dir, CFG.rawSeconds);
  log(`  fsync (512 B write + fsyncSync)              ${fmt(fsync.perSec).padStart(7)}/s  p50 ${fmt(fsync.p50, 3)} ms  p99 ${fmt(fsync.p99, 3)} ms`);
  const sq = sqliteBaselines(dir, CFG.rawSeconds);
  log(`  SQLite 1 row / tx (WAL, synchronous=FULL)    ${fmt(sq.onePerTx.perSec).padStart(7)} commits/s  p50 ${fmt(sq.onePerTx.p50, 3)} ms`);
  log(`  SQLite 64 rows / tx                          ${fmt(sq.grouped64.perSec).padStart(7)} rows/s  (tx p50 ${fmt(sq.grouped64.p50, 3)} ms)`);
  log(`  SQLite store write set (5 rows/cmd), 64/tx   ${fmt(sq.writeSet64.perSec).padStart(7)} cmds/s  (tx p50 ${fmt(sq.writeSet64.p50, 3)} ms)  ascending ids`);
  log(`  same, SHA-256 contract/update ids (as ledger) ${fmt(sq.writeSet64Hashed.perSec).padStart(7)} cmds/s  (tx p50 ${fmt(sq.writeSet64Hashed.p50, 3)} ms, p99 ${fmt(sq.writeSet64Hashed.p99, 3)} ms)`);
  return { fsync, sqlite: sq };
}

// ---------------------------------------------------------------------------------------------
// Engine layer: the ledger without any API (in-process, no network): submissionFromProto + Ledger.submit.

async function engineLayer(bs: BenchServer, party: string, user: string, concurrency: number): Promise<Point> {
  const { api } = bs.server;
  let n = 0;
  const latencies: number[] = [];
  let errors = 0;
  const probe = new Probe();
  const m = marks(probe, true);
  const { from, to, closed } = measureWindow(performance.now(), CFG.warmupMs / 2, CFG.echoMs, m.mark);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const start = performance.now();
        if (start >= to) return;
        const sub = await submissionFromProto(iouCommands(party, `${runId}-engine-${concurrency}-${n++}`), user, api.registry, api.store);
        const out = await api.ledger.submit(sub);
        const end = performance.now();
        if (out.kind !== "committed") errors++;
        else if (start >= from && end <= to) latencies.push(end - start);
      }
    }),
  );
  await closed;
  const stats = runStats(latencies, CFG.echoMs / 1000, errors);
  const p: Point = { id: `engine-${concurrency}`, what: `engine only (Ledger.submit), ${concurrency} concurrent`, placement: "inproc", concurrency, stats, ...perOp(probe.result, stats.n, m.commits()) };
  points.push(p);
  printPoint(p);
  return p;
}

// ---------------------------------------------------------------------------------------------
// Scenario 3: completion delivery latency.

interface S3Result {
  readonly count: number;
  readonly commitToCompletion: LatencyStats;
  readonly responseToCompletion?: LatencyStats;
  readonly startToCompletion: LatencyStats;
  readonly callLatency: LatencyStats;
  readonly missing: number;
}

async function completionLatency(bs: BenchServer, mode: "submitAndWait" | "submit"): Promise<S3Result> {
  const { party, user, token } = await bs.partyUser(`s3-${mode}-${runId}`);
  const store = bs.server.store;
  // Commit instants, from inside the server: the store calls ledger-end listeners right after the
  // SQLite transaction (and its fsync) returns. Registered before the stream's own listener.
  const commitAt = new Map<bigint, number>();
  let lastEnd = await store.ledgerEnd();
  const unsubscribe = store.onLedgerEnd((end) => {
    const t = performance.now();
    for (let o = lastEnd + 1n; o <= end; o++) commitAt.set(o, t);
    lastEnd = end;
  });
  const clients = grpcClients(grpcTransport(bs.grpcUrl, token));
  const abort = new AbortController();
  const arrivals = new Map<string, { t: number; offset: bigint; ok: boolean }>();
  let waiter: { id: string; resolve: () => void } | undefined;
  const begin = await store.ledgerEnd();
  const reading = (async () => {
    try {
      for await (const r of clients.completions.completionStream({ userId: user, parties: [party], beginExclusive: begin }, { signal: abort.signal })) {
        if (r.completionResponse.case !== "completion") continue;
        const c = r.completionResponse.value;
        arrivals.set(c.commandId, { t: performance.now(), offset: c.offset, ok: (c.status?.code ?? 0) === 0 });
        if (waiter && waiter.id === c.commandId) waiter.resolve();
      }
    } catch (e) {
      if (!abort.signal.aborted) throw e;
    }
  })();
  const commitToCompletion: number[] = [];
  const responseToCompletion: number[] = [];
  const startToCompletion: number[] = [];
  const callLatency: number[] = [];
  let missing = 0;
  for (let i = 0; i < CFG.s3Count + 20; i++) {
    const id = `${runId}-s3-${mode}-${i}`;
    const arrived = new Promise<void>((resolve) => {
      waiter = { id, resolve };
      if (arrivals.has(id)) resolve();
    });
    const t0 = performance.now();
    if (mode === "submitAndWait") await clients.commands.submitAndWait(grpcRequests.submitAndWait(party, id));
    else await clients.submission.submit(grpcRequests.submit(party, id));
    const t1 = performance.now();
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 5000).unref());
    if ((await Promise.race([arrived, timeout])) === "timeout") {
      missing++;
      continue;
    }
    if (i < 20) continue; // warm-up
    const a = arrivals.get(id)!;
    const committed = commitAt.get(a.offset);
    if (committed !== undefined) commitToCompletion.push(a.t - committed);
    if (mode === "submitAndWait") responseToCompletion.push(a.t - t1);
    startToCompletion.push(a.t - t0);
    callLatency.push(t1 - t0);
  }
  abort.abort();
  await reading;
  unsubscribe();
  return {
    count: startToCompletion.length,
    commitToCompletion: latencyStats(commitToCompletion),
    responseToCompletion: mode === "submitAndWait" ? latencyStats(responseToCompletion) : undefined,
    startToCompletion: latencyStats(startToCompletion),
    callLatency: latencyStats(callLatency),
    missing,
  };
}

// ---------------------------------------------------------------------------------------------
// Scenario 4: catch-up read of many completions, on a fresh server holding exactly those.

async function catchUp() {
  const n = CFG.s4Rows;
  log(`\n== S4: catch-up read of ${n.toLocaleString("en-US")} completions (fresh server; list limit raised to ${(2 * n).toLocaleString("en-US")})`);
  const bs = await startBenchServer(2 * n);
  try {
    const { party, user, token } = await bs.partyUser(`s4-${runId}`);
    const store = bs.server.store;
    const recordTime = BigInt(Date.now()) * 1000n;
    const completion = (i: number): Omit<CompletionRecord, "offset"> => ({
      commandId: `${runId}-s4-${i}`,
      userId: user,
      actAs: [party],
      submissionId: `sub-${i.toString(16).padStart(28, "0")}`,
      deduplication: { kind: "none" },
      recordTime,
      status: {
        code: 6,
        message: `DUPLICATE_COMMAND(10,sub-${i}): A command with the given command id has already been successfully processed`,
        errorCode: "DUPLICATE_COMMAND",
        category: 10,
        context: { changeId: `["${user}",["${party}"],"${runId}-s4-${i}"]`, existing_submission_id: "" },
        resources: [],
        correlationId: `sub-${i}`,
        definiteAnswer: false,
      },
    });
    const t0 = performance.now();
    const BATCH = 1000;
    for (let i = 0; i < n; i += BATCH) {
      await Promise.all(Array.from({ length: Math.min(BATCH, n - i) }, (_, k) => store.commit({ kind: "rejection", completion: completion(i + k) })));
    }
    const fillSeconds = (performance.now() - t0) / 1000;
    log(`  pre-populate via store.commit (batches of ${BATCH}, group commit)  ${fmt(n / fillSeconds)} completions/s  (${fmt(fillSeconds, 2)} s)`);

    const bare = sqliteReadCompletions(join(bs.dataDir, "ledger.sqlite"));
    log(`  baseline: bare SQLite SELECT + JSON.parse of all rows           ${fmt(bare.seconds, 3)} s  (${bare.rows.toLocaleString("en-US")} rows)`);
    const end = await store.ledgerEnd();
    let t = performance.now();
    let cursor = 0n;
    let storeRows = 0;
    for (;;) {
      const page = await store.completions(cursor, end, 1000);
      storeRows += page.length;
      if (page.length < 1000) break;
      cursor = page[page.length - 1].offset;
    }
    const storeSeconds = (performance.now() - t) / 1000;
    log(`  baseline: store.completions() pages of 1000 (decodeRecord)      ${fmt(storeSeconds, 3)} s  (${storeRows.toLocaleString("en-US")} rows)`);

    const target: Target = { grpcUrl: bs.grpcUrl, httpUrl: bs.httpUrl, token, party };
    // Client floor: the same number of pre-encoded rejection completions from the native echo
    // server, which reads and encodes nothing per item.
    const echo = await startEchoServers();
    const flood: Target = { ...target, grpcUrl: echo.nativeUrl };
    const reads: Record<string, ReadResult & { mainUsPerItem?: number; cpuUsPerItem?: number; foreignCores?: number }> = {};
    for (const [key, placement, kind, at] of [
      ["flood-grpc-worker", "worker", "read-grpc", flood],
      ["flood-grpcjs-worker", "worker", "read-grpcjs", flood],
      ["grpc-worker", "worker", "read-grpc", target],
      ["grpcjs-worker", "worker", "read-grpcjs", target],
      ["grpc-inproc", "inproc", "read-grpc", target],
      ["json-worker", "worker", "read-json", target],
    ] as const) {
      const probe = new Probe();
      t = performance.now();
      const r =
        kind !== "read-json"
          ? await runTaskIn<ReadResult>(placement, { kind, target: at, userId: user, beginExclusive: at === flood ? String(n) : "0", expect: n }, probe.mark)
          : await runTaskIn<ReadResult>(placement, { kind, target: at, userId: user, beginExclusive: "0", limit: n }, probe.mark);
      const pr = probe.result;
      reads[key] = {
        ...r,
        mainUsPerItem: pr && r.count ? (pr.mainActiveMs * 1000) / r.count : undefined,
        cpuUsPerItem: pr && r.count ? (pr.processCpuMs * 1000) / r.count : undefined,
        foreignCores: pr?.foreignCores,
      };
      log(
        `  ${((at === flood ? "baseline: pre-encoded flood, " : "") + (kind === "read-grpc" ? "gRPC CompletionStream, Connect client" : kind === "read-grpcjs" ? "gRPC CompletionStream, grpc-js client" : "JSON POST /v2/commands/completions?limit=" + n)).padEnd(52)} ${placement.padEnd(6)} ${fmt(r.seconds, 3).padStart(6)} s  ${fmt(r.count / r.seconds)} items/s  items ${r.count.toLocaleString("en-US")}` +
          (Number.isNaN(r.firstItemMs) ? "" : `  first item ${fmt(r.firstItemMs, 1)} ms`) +
          (r.bytes ? `  ${(r.bytes / 1e6).toFixed(1)} MB` : "") +
          `  main ${fmt(reads[key].mainUsPerItem, 1)} µs/item  other-procs ${fmt(pr?.foreignCores, 2)} cores` +
          (r.error ? `  ERROR ${r.error}` : ""),
      );
    }
    await echo.stop();
    return { rows: n, fillSeconds, bareSqliteSeconds: bare.seconds, storePagesSeconds: storeSeconds, reads };
  } finally {
    await bs.stop();
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  const dataParent = os.tmpdir();
  log(`ccwallet bench ${QUICK ? "(QUICK smoke run)" : ""}: node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, load avg ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
  log(`columns: throughput; latency percentiles; main = server event-loop busy time per op (includes the client when inproc);`);
  log(`         cpu = whole-process CPU per op (server + worker client); other-procs = cores used by other processes meanwhile`);

  const raw = rawBaselines(dataParent);

  const bs = await startBenchServer(10_000);
  counter = new CommitCounter(bs);
  const echo = await startEchoServers();
  const s1 = await bs.partyUser(`s1-${runId}`);
  const target: Target = { grpcUrl: bs.grpcUrl, httpUrl: bs.httpUrl, token: s1.token, party: s1.party };
  const echoTarget: Target = { ...target, grpcUrl: echo.grpcUrl, httpUrl: echo.httpUrl };

  log("\n== Engine layer (no API, no network): submissionFromProto + Ledger.submit, in-process");
  const engine1 = await engineLayer(bs, s1.party, s1.user, 1);
  const engine64 = await engineLayer(bs, s1.party, s1.user, 64);

  log("\n== S1: submit-and-wait-for-transaction, one Iou create; each point next to its echo baseline");
  log("  gRPC clients: Connect (@connectrpc/connect-node) and grpc-js (@grpc/grpc-js); echo = the same constant unary answer");
  log("  from ccwallet's native gRPC handler (the ledger's own transport), so the ratio isolates the ledger's work");
  const s1Points: Record<string, Point> = {};
  const nativeEcho: Target = { ...echoTarget, grpcUrl: echo.nativeUrl };
  for (const c of CONCURRENCY) {
    s1Points[`echo-native-connect-${c}`] = await closedPoint(`echo-native-connect-${c}`, `baseline native echo, Connect client, ${c} cl.`, "grpc-echo", nativeEcho, c, "worker", CFG.echoMs);
    s1Points[`grpc-${c}`] = await closedPoint(`grpc-${c}`, `gRPC SubmitAndWaitForTx, Connect client, ${c} cl.`, "grpc-submit", target, c, "worker", CFG.durationMs);
    s1Points[`echo-native-grpcjs-${c}`] = await closedPoint(`echo-native-grpcjs-${c}`, `baseline native echo, grpc-js client, ${c} cl.`, "grpcjs-echo", nativeEcho, c, "worker", CFG.echoMs);
    s1Points[`grpcjs-${c}`] = await closedPoint(`grpcjs-${c}`, `gRPC SubmitAndWaitForTx, grpc-js client, ${c} cl.`, "grpcjs-submit", target, c, "worker", CFG.durationMs);
    s1Points[`json-echo-${c}`] = await closedPoint(`json-echo-${c}`, `baseline HTTP/1.1 JSON echo, ${c} clients`, "json-echo", echoTarget, c, "worker", CFG.echoMs);
    s1Points[`json-${c}`] = await closedPoint(`json-${c}`, `JSON submit-and-wait-for-transaction, ${c} cl.`, "json-submit", target, c, "worker", CFG.durationMs);
  }
  log("  -- the bare echo on the other server stacks, 64 clients (Connect server = what served gRPC before; grpc-js server):");
  const grpcJsEcho: Target = { ...echoTarget, grpcUrl: echo.grpcJsUrl };
  s1Points["echo-connect-connect-64"] = await closedPoint("echo-connect-connect-64", "baseline Connect-server echo, Connect client", "grpc-echo", echoTarget, 64, "worker", CFG.echoMs);
  s1Points["echo-connect-grpcjs-64"] = await closedPoint("echo-connect-grpcjs-64", "baseline Connect-server echo, grpc-js client", "grpcjs-echo", echoTarget, 64, "worker", CFG.echoMs);
  s1Points["echo-grpcjs-connect-64"] = await closedPoint("echo-grpcjs-connect-64", "baseline grpc-js-server echo, Connect client", "grpc-echo", grpcJsEcho, 64, "worker", CFG.echoMs);
  s1Points["echo-grpcjs-grpcjs-64"] = await closedPoint("echo-grpcjs-grpcjs-64", "baseline grpc-js-server echo, grpc-js client", "grpcjs-echo", grpcJsEcho, 64, "worker", CFG.echoMs);
  log("  -- the ledger with plain gRPC served by the Connect adapter (before native-grpc.ts), 64 clients:");
  const connectServed = await startBenchServer(10_000, { grpcTransport: "connect" });
  const cs = await connectServed.partyUser(`s1c-${runId}`);
  const connectTarget: Target = { grpcUrl: connectServed.grpcUrl, httpUrl: connectServed.httpUrl, token: cs.token, party: cs.party };
  s1Points["grpc-64-connect-server"] = await closedPoint("grpc-64-connect-server", "gRPC SubmitAndWaitForTx via Connect server, Connect cl.", "grpc-submit", connectTarget, 64, "worker", CFG.durationMs);
  s1Points["grpcjs-64-connect-server"] = await closedPoint("grpcjs-64-connect-server", "gRPC SubmitAndWaitForTx via Connect server, grpc-js cl.", "grpcjs-submit", connectTarget, 64, "worker", CFG.durationMs);
  await connectServed.stop();
  if (!QUICK) s1Points["grpc-64-8conn"] = await closedPoint("grpc-64-8conn", "gRPC SubmitAndWaitForTx, 64 cl. / 8 conns", "grpc-submit", target, 64, "worker", CFG.durationMs, 8);
  if (!QUICK) {
    log("  -- same at 64 clients with the client on the server's event loop (inproc):");
    s1Points["echo-native-connect-64-inproc"] = await closedPoint("echo-native-connect-64", "baseline native echo, Connect client, 64 cl.", "grpc-echo", nativeEcho, 64, "inproc", CFG.echoMs);
    s1Points["grpc-64-inproc"] = await closedPoint("grpc-64", "gRPC SubmitAndWaitForTx, Connect client, 64 cl.", "grpc-submit", target, 64, "inproc", CFG.durationMs);
    s1Points["json-64-inproc"] = await closedPoint("json-64", "JSON submit-and-wait-for-transaction, 64 cl.", "json-submit", target, 64, "inproc", CFG.durationMs);
  }

  log(`\n== S2: open loop, ${OPEN_RATE} cmd/s offered over gRPC (latency from scheduled send time)`);
  const s2Echo = await openPoint("open-echo", `baseline native echo @ ${OPEN_RATE}/s, Connect client`, "grpc-echo", nativeEcho, "worker");
  const s2 = await openPoint("open-grpc", `gRPC SubmitAndWaitForTx @ ${OPEN_RATE}/s, Connect client`, "grpc-submit", target, "worker");
  const s2EchoJs = await openPoint("open-echo-grpcjs", `baseline native echo @ ${OPEN_RATE}/s, grpc-js client`, "grpcjs-echo", nativeEcho, "worker");
  const s2Js = await openPoint("open-grpcjs", `gRPC SubmitAndWaitForTx @ ${OPEN_RATE}/s, grpc-js client`, "grpcjs-submit", target, "worker");
  const s2Json = await openPoint("open-json", `JSON submit-and-wait-for-tx @ ${OPEN_RATE}/s`, "json-submit", target, "worker");

  log("\n== S3: completion delivery (gRPC CompletionStream open; commands one at a time, in-process client)");
  log("  commit instant = the store's ledger-end notification (right after the SQLite commit returns), taken inside the server");
  const s3: Record<string, S3Result> = {};
  for (const mode of ["submitAndWait", "submit"] as const) {
    const r = await completionLatency(bs, mode);
    s3[mode] = r;
    const row = (name: string, s: LatencyStats | undefined) =>
      s && log(`  ${mode.padEnd(14)} ${name.padEnd(34)} p50 ${fmt(s.p50, 3).padStart(7)}  p90 ${fmt(s.p90, 3).padStart(7)}  p99 ${fmt(s.p99, 3).padStart(7)}  max ${fmt(s.max, 3).padStart(7)} ms  (n=${s.n})`);
    row("commit -> completion received", r.commitToCompletion);
    row("call returned -> completion received", r.responseToCompletion);
    row("call start -> completion received", r.startToCompletion);
    row(mode === "submit" ? "Submit call (ack before commit)" : "SubmitAndWait call", r.callLatency);
    if (r.missing) log(`  ${r.missing} completions did not arrive within 5 s`);
  }

  await echo.stop();
  await bs.stop();

  const s4 = await catchUp();

  // -------------------------------------------------------------------------------------------
  const g64 = s1Points["grpc-64"].stats;
  const gj64 = s1Points["grpcjs-64"].stats;
  const j64 = s1Points["json-64"].stats;
  const je64 = s1Points["json-echo-64"].stats;
  const ratio = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(0)}%` : "-");
  type SummaryRow = { scenario: string; target: string; measured: string; baseline: string; ratio: string; pass?: boolean };
  const summary: SummaryRow[] = [];
  const add = (r: SummaryRow) => summary.push(r);
  const CLIENTS = [
    ["grpc", "connect", "Connect"],
    ["grpcjs", "grpcjs", "grpc-js"],
  ] as const;
  for (const c of CONCURRENCY) {
    for (const [id, echoId, name] of CLIENTS) {
      const g = s1Points[`${id}-${c}`].stats;
      const ge = s1Points[`echo-native-${echoId}-${c}`].stats;
      add({
        scenario: `S1 gRPC submit-and-wait-for-tx, ${c} cl., ${name} client`,
        target: c === 64 ? "≥ 1,500 cmd/s" : "-",
        measured: `${fmt(g.perSec)} cmd/s (p50 ${fmt(g.p50, 1)} / p99 ${fmt(g.p99, 1)} ms)`,
        baseline: `native echo ${fmt(ge.perSec)}/s (p50 ${fmt(ge.p50, 1)} / p99 ${fmt(ge.p99, 1)})`,
        ratio: ratio(g.perSec, ge.perSec),
        pass: c === 64 ? g.perSec >= 1500 && g.errors === 0 : undefined,
      });
    }
  }
  for (const c of CONCURRENCY) {
    const j = s1Points[`json-${c}`].stats;
    const je = s1Points[`json-echo-${c}`].stats;
    add({
      scenario: `S1 JSON submit-and-wait-for-tx, ${c} cl.`,
      target: c === 64 ? "≥ 1,000 cmd/s" : "-",
      measured: `${fmt(j.perSec)} cmd/s (p50 ${fmt(j.p50, 1)} / p99 ${fmt(j.p99, 1)} ms)`,
      baseline: `JSON echo ${fmt(je.perSec)}/s (p50 ${fmt(je.p50, 1)} / p99 ${fmt(je.p99, 1)})`,
      ratio: ratio(j.perSec, je.perSec),
      pass: c === 64 ? j.perSec >= 1000 : undefined,
    });
  }
  for (const [server, serverName] of [["connect", "Connect"], ["grpcjs", "grpc-js"]] as const) {
    for (const [, echoId, name] of CLIENTS) {
      const e = s1Points[`echo-${server}-${echoId}-64`].stats;
      const native = s1Points[`echo-native-${echoId}-64`].stats;
      add({ scenario: `baseline: ${serverName}-server echo, ${name} cl., 64`, target: "-", measured: `${fmt(e.perSec)} calls/s (p50 ${fmt(e.p50, 1)} / p99 ${fmt(e.p99, 1)} ms)`, baseline: `native echo ${fmt(native.perSec)}/s`, ratio: ratio(e.perSec, native.perSec) });
    }
  }
  for (const [id, , name] of CLIENTS) {
    const before = s1Points[`${id}-64-connect-server`].stats;
    const now = s1Points[`${id}-64`].stats;
    add({ scenario: `S1 gRPC 64 cl. via Connect server (before), ${name} cl.`, target: "-", measured: `${fmt(before.perSec)} cmd/s (p50 ${fmt(before.p50, 1)} / p99 ${fmt(before.p99, 1)} ms)`, baseline: `native: ${fmt(now.perSec)}/s`, ratio: ratio(before.perSec, now.perSec) });
  }
  if (!QUICK) {
    const g8 = s1Points["grpc-64-8conn"].stats;
    add({ scenario: "S1 gRPC 64 cl. over 8 HTTP/2 conns, Connect", target: "-", measured: `${fmt(g8.perSec)} cmd/s (p50 ${fmt(g8.p50, 1)} / p99 ${fmt(g8.p99, 1)} ms)`, baseline: `1 conn: ${fmt(g64.perSec)}/s`, ratio: ratio(g8.perSec, g64.perSec) });
    const gi = s1Points["grpc-64-inproc"].stats;
    const ji = s1Points["json-64-inproc"].stats;
    const gei = s1Points["echo-native-connect-64-inproc"].stats;
    add({ scenario: "S1 gRPC 64 cl., Connect client inproc", target: "-", measured: `${fmt(gi.perSec)} cmd/s (p99 ${fmt(gi.p99, 1)} ms)`, baseline: `native echo inproc ${fmt(gei.perSec)}/s`, ratio: ratio(gi.perSec, gei.perSec) });
    add({ scenario: "S1 JSON 64 cl., client inproc", target: "-", measured: `${fmt(ji.perSec)} cmd/s (p99 ${fmt(ji.p99, 1)} ms)`, baseline: `JSON echo (worker) ${fmt(je64.perSec)}/s`, ratio: ratio(ji.perSec, je64.perSec) });
  }
  for (const [open, openEcho, name] of [
    [s2, s2Echo, "Connect"],
    [s2Js, s2EchoJs, "grpc-js"],
  ] as const) {
    add({
      scenario: `S2 p99 @ ${OPEN_RATE} cmd/s offered (gRPC), ${name} client`,
      target: "≤ 25 ms",
      measured: `p99 ${fmt(open.stats.p99, 1)} ms (p50 ${fmt(open.stats.p50, 1)}, p90 ${fmt(open.stats.p90, 1)}, ${fmt(open.stats.perSec)}/s done)`,
      baseline: `native echo @${OPEN_RATE}/s p99 ${fmt(openEcho.stats.p99, 1)} ms`,
      ratio: "-",
      pass: open.stats.p99 <= 25 && open.stats.errors === 0,
    });
  }
  add({
    scenario: `S2' same over JSON @ ${OPEN_RATE}/s`,
    target: "-",
    measured: `p99 ${fmt(s2Json.stats.p99, 1)} ms (p50 ${fmt(s2Json.stats.p50, 1)}, p90 ${fmt(s2Json.stats.p90, 1)})`,
    baseline: "-",
    ratio: "-",
  });
  const s3w = s3.submitAndWait;
  const s3a = s3.submit;
  add({
    scenario: "S3 commit -> completion received, p50",
    target: "≤ 5 ms",
    measured: `${fmt(s3w.commitToCompletion.p50, 2)} ms (p99 ${fmt(s3w.commitToCompletion.p99, 2)}); async Submit: ${fmt(s3a.commitToCompletion.p50, 2)} (p99 ${fmt(s3a.commitToCompletion.p99, 2)})`,
    baseline: `native echo 1 cl. p50 ${fmt(s1Points["echo-native-connect-1"].stats.p50, 2)} ms`,
    ratio: "-",
    pass: s3w.commitToCompletion.p50 <= 5,
  });
  add({
    scenario: "S3 SubmitAndWait returned -> completion",
    target: "-",
    measured: `p50 ${fmt(s3w.responseToCompletion?.p50, 2)} / p99 ${fmt(s3w.responseToCompletion?.p99, 2)} ms`,
    baseline: "-",
    ratio: "-",
  });
  add({
    scenario: "S3 submit start -> completion",
    target: "-",
    measured: `SubmitAndWait p50 ${fmt(s3w.startToCompletion.p50, 2)} / p99 ${fmt(s3w.startToCompletion.p99, 2)}; Submit p50 ${fmt(s3a.startToCompletion.p50, 2)} / p99 ${fmt(s3a.startToCompletion.p99, 2)} ms`,
    baseline: `fsync p50 ${fmt(raw.fsync.p50, 2)} ms`,
    ratio: "-",
  });
  const gri = s4.reads["grpc-inproc"];
  const jr = s4.reads["json-worker"];
  for (const [key, name] of [
    ["grpc-worker", "Connect"],
    ["grpcjs-worker", "grpc-js"],
  ] as const) {
    const gr = s4.reads[key];
    const floor = s4.reads[`flood-${key}`];
    add({
      scenario: `S4 catch-up ${s4.rows.toLocaleString("en-US")} completions, gRPC, ${name} client`,
      target: s4.rows === 100_000 ? "≤ 2 s" : "(≤ 2 s @100k)",
      measured: `${fmt(gr.seconds, 2)} s (${fmt(gr.count / gr.seconds)}/s)${gr.count < s4.rows ? ` ONLY ${gr.count}` : ""}${key === "grpc-worker" ? `; inproc ${fmt(gri.seconds, 2)} s` : ""}`,
      baseline: `client floor (pre-encoded flood) ${fmt(floor.seconds, 2)} s; SQLite read+parse ${fmt(s4.bareSqliteSeconds, 2)} s`,
      ratio: `${(gr.seconds / floor.seconds).toFixed(1)}× floor`,
      pass: s4.rows === 100_000 ? gr.seconds <= 2 && gr.count === s4.rows : undefined,
    });
  }
  add({
    scenario: `S4 catch-up ${s4.rows.toLocaleString("en-US")} completions, JSON`,
    target: "-",
    measured: jr.error ? `ERROR ${jr.error.slice(0, 60)}` : `${fmt(jr.seconds, 2)} s (${fmt(jr.count / jr.seconds)}/s, ${((jr.bytes ?? 0) / 1e6).toFixed(0)} MB)`,
    baseline: `SQLite read+parse ${fmt(s4.bareSqliteSeconds, 2)} s`,
    ratio: `${(jr.seconds / s4.bareSqliteSeconds).toFixed(1)}× bare`,
  });
  add({ scenario: "raw fsync", target: "-", measured: `${fmt(raw.fsync.perSec)} fsync/s (p50 ${fmt(raw.fsync.p50, 3)} ms)`, baseline: "-", ratio: "-" });
  add({ scenario: "raw SQLite 1 row/tx", target: "-", measured: `${fmt(raw.sqlite.onePerTx.perSec)} commits/s`, baseline: "fsync", ratio: ratio(raw.sqlite.onePerTx.perSec, raw.fsync.perSec) });
  add({ scenario: "raw SQLite 64 rows/tx", target: "-", measured: `${fmt(raw.sqlite.grouped64.perSec)} rows/s`, baseline: "-", ratio: "-" });
  add({ scenario: "raw SQLite write set, 64 cmds/tx", target: "-", measured: `${fmt(raw.sqlite.writeSet64.perSec)} cmds/s ascending ids; ${fmt(raw.sqlite.writeSet64Hashed.perSec)} hashed ids`, baseline: "-", ratio: "-" });
  add({
    scenario: "engine only (Ledger.submit) 1 / 64",
    target: "-",
    measured: `${fmt(engine1.stats.perSec)} / ${fmt(engine64.stats.perSec)} cmd/s (${fmt(engine64.mainUsPerOp, 0)} µs/cmd)`,
    baseline: `gRPC 64: ${fmt(g64.perSec)} (Connect cl.) / ${fmt(gj64.perSec)} (grpc-js cl.), JSON 64: ${fmt(j64.perSec)}`,
    ratio: "-",
  });

  log("\n== Summary (target vs measured vs baseline measured in the same run; ratio = measured / baseline)");
  log(
    table(
      ["scenario", "target", "measured", "baseline (same run)", "ratio", "ok"],
      summary.map((r) => [r.scenario, r.target, r.measured, r.baseline, r.ratio, r.pass === undefined ? "" : r.pass ? "PASS" : "FAIL"]),
    ),
  );
  log(`\nother processes used on average ${fmt(avg(points.map((p) => p.foreignCores)), 2)} cores during the load points (max ${fmt(max(points.map((p) => p.foreignCores)), 2)})`);
  const totalSeconds = (performance.now() - started) / 1000;
  log(`total ${totalSeconds.toFixed(0)} s`);

  const out = {
    meta: {
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
    },
    summary,
    raw,
    points,
    s2: { offeredPerSec: OPEN_RATE, grpc: s2, grpcjs: s2Js, json: s2Json, echo: s2Echo, echoGrpcjs: s2EchoJs },
    s3,
    s4,
    engine: { c1: engine1, c64: engine64 },
    ratios: {
      grpc64VsEcho: g64.perSec / s1Points["echo-native-connect-64"].stats.perSec,
      grpcjs64VsEcho: gj64.perSec / s1Points["echo-native-grpcjs-64"].stats.perSec,
      json64VsEcho: j64.perSec / je64.perSec,
    },
  };
  const dir = join(benchDir, "results");
  mkdirSync(dir, { recursive: true });
  // A smoke run does not overwrite the full run's numbers.
  const file = QUICK ? "latest-quick.json" : "latest.json";
  writeFileSync(join(dir, file), JSON.stringify(out, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n");
  log(`wrote ${join("bench", "results", file)}`);
  await stopWorker();
}

function avg(xs: (number | undefined)[]): number {
  const v = xs.filter((x): x is number => x !== undefined);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
}
function max(xs: (number | undefined)[]): number {
  const v = xs.filter((x): x is number => x !== undefined);
  return v.length ? Math.max(...v) : NaN;
}
function gitCommit(): string | undefined {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: benchDir, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {
    return undefined;
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
