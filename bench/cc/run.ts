/**
 * Canton Coin benchmark (issue #3): `npx tsx bench/cc/run.ts` (about 1 min) or with
 * `BENCH_QUICK=1` (about 20 s). Loopback only, bounded, stops by itself.
 *
 * - one-step preapproved CC transfers per second (TransferPreapproval_Send, 1 input, change
 *   output, featured provider) at 8 and 64 concurrent senders over the public gRPC and JSON
 *   Ledger APIs, the client in a worker thread; baselines in the same run: the issue #2
 *   operation (one Iou create) through the same API and concurrency, and both commands on the
 *   engine alone;
 * - latency of a 100-input AmuletRules_Transfer (gRPC, sequential), baselines: a 1-input
 *   transfer and the 100-input one on the engine alone;
 * - time to compute a balance over 10,000 holdings: the wallet's (its in-memory holdings index),
 *   from the ACS in process, over gRPC GetActiveContracts; baselines: bare SQLite read +
 *   JSON.parse of those rows, and the fee arithmetic alone.
 * Results: a summary table, and bench/results/cc-latest.json (cc-latest-quick.json when quick).
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { submissionFromProto } from "../../src/api/convert/commands-proto.js";
import type { Submission } from "../../src/ledger/commands.js";
import { iouCommands } from "../lib/clients.js";
import { log } from "../lib/log.js";
import { Probe } from "../lib/probe.js";
import { ResultRows } from "../lib/result-rows.js";
import { headerLine } from "../lib/run-facts.js";
import { startBenchServer, type BenchServer } from "../lib/setup.js";
import { fmt, latencyStats, table } from "../lib/stats.js";
import { mergeTransfer, preapprovedSend } from "./cc-commands.js";
import { runInWorker, stopCcWorker, type CcResult, type CcTask } from "./cc-load.js";
import { ccNetwork, type CcNetwork } from "./cc-network.js";
import { balanceByGrpc, balanceInProcess, feeMathOnly } from "./cc-balance.js";
import { getBalance } from "../../src/wallet/use-cases/get-balance.js";

const QUICK = process.env.BENCH_QUICK === "1";
const CFG = QUICK
  ? { warmupMs: 300, durationMs: 1500, mergeReps: 5, balanceReps: 3 }
  : { warmupMs: 1000, durationMs: 5000, mergeReps: 20, balanceReps: 7 };
const SENDERS = [8, 64] as const;
const HOLDINGS_FOR_BALANCE = 10_000;
const runId = Date.now().toString(36);
const rows = new ResultRows({ whatWidth: 52, mainCpu: false });

async function workerPoint(key: string, what: string, task: CcTask): Promise<CcResult> {
  const probe = new Probe();
  const r = await runInWorker(task, probe.mark);
  rows.printLoad(key, what, r, probe.result);
  return r;
}

/** The same CC command straight into Ledger.submit (proto conversion included), in process. */
async function enginePoint(key: string, what: string, concurrency: number, next: (i: number) => Promise<Submission>, after: (i: number, created: string) => void, durationMs: number) {
  const probe = new Probe();
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const from = performance.now() + CFG.warmupMs / 2;
  const to = from + durationMs;
  const started = setTimeout(() => probe.start(), CFG.warmupMs / 2);
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      while (performance.now() < to) {
        const start = performance.now();
        const out = await bs.server.api.ledger.submit(await next(i));
        const end = performance.now();
        if (out.kind !== "committed") {
          errors++;
          firstError ??= out.error.message;
          if (errors > 50) return;
          continue;
        }
        const created = out.transaction.nodes.find((n) => n.kind === "create" && n.templateId.endsWith(":Splice.Amulet:Amulet") && (n.payload as { owner: string }).owner === senderOf(i));
        if (created) after(i, created.contractId);
        if (start >= from && end <= to) latencies.push(end - start);
      }
    }),
  );
  clearTimeout(started);
  probe.stop();
  rows.printLoad(key, what, { latencies, seconds: durationMs / 1000, errors, firstError }, probe.result);
}

let bs: BenchServer;
let senderOf: (i: number) => string = () => "";

async function transfers(net: CcNetwork) {
  log("\n== One-step preapproved transfers (TransferPreapproval_Send: 1 input, change output, featured provider)");
  const { parties, token } = await net.actors("cc-sender", 64);
  const holdings: string[] = [];
  for (const p of parties) holdings.push(...(await net.holdings(p, 1, "1000000")));
  const iou = await net.actors("cc-iou", 64);
  const user = `cc-sender-${runId}`;
  senderOf = (i) => parties[i];
  for (const n of SENDERS) {
    const common = { token, context: net.context, amount: "0.0001", warmupMs: CFG.warmupMs, durationMs: CFG.durationMs };
    const iouCommon = { token: iou.token, parties: iou.parties.slice(0, n), warmupMs: CFG.warmupMs, durationMs: CFG.durationMs };
    for (const api of ["grpc", "json"] as const) {
      const httpUrl = api === "json" ? bs.httpUrl : undefined;
      const name = api === "grpc" ? "gRPC" : "JSON";
      await workerPoint(`iou-${api}-${n}`, `baseline: ${name} Iou create (issue #2 op), ${n} clients`, {
        kind: "iou", grpcUrl: bs.grpcUrl, httpUrl, ...iouCommon, idPrefix: `${runId}-iou-${api}-${n}`,
      });
      const senders = parties.slice(0, n).map((party, i) => ({ party, holding: holdings[i] }));
      const r = await workerPoint(`send-${api}-${n}`, `${name} preapproved CC transfer, ${n} senders`, {
        kind: "send", grpcUrl: bs.grpcUrl, httpUrl, ...common, senders, idPrefix: `${runId}-send-${api}-${n}`,
      });
      r.holdings!.forEach((h, i) => (holdings[i] = h));
    }
    let k = 0;
    await enginePoint(
      `engine-iou-${n}`,
      `baseline: Iou create, engine only (Ledger.submit), ${n}`,
      n,
      (i) => submissionFromProto(iouCommands(iou.parties[i], `${runId}-engiou-${n}-${k++}`), `cc-iou-${runId}`, bs.server.api.registry, bs.server.api.store),
      () => undefined,
      CFG.durationMs,
    );
    await enginePoint(
      `engine-send-${n}`,
      `baseline: CC transfer, engine only (Ledger.submit), ${n}`,
      n,
      (i) => submissionFromProto(preapprovedSend(net.context, parties[i], holdings[i], "0.0001", `${runId}-eng-${n}-${k++}`).commands, user, bs.server.api.registry, bs.server.api.store),
      (i, created) => (holdings[i] = created),
      CFG.durationMs,
    );
  }
}

async function bigTransfer(net: CcNetwork) {
  log("\n== 100-input AmuletRules_Transfer (merge into one holding), sequential");
  const { parties, token } = await net.actors("cc-merger", 1);
  const sender = parties[0];
  const batches: string[][] = [];
  for (let i = 0; i < CFG.mergeReps + 1; i++) batches.push(await net.holdings(sender, 100, "1"));
  const ones = await net.holdings(sender, CFG.mergeReps + 1, "1");
  await workerPoint("merge-1", "baseline: gRPC 1-input transfer", { kind: "merge", grpcUrl: bs.grpcUrl, token, context: net.context, sender, batches: ones.map((h) => [h]), idPrefix: `${runId}-m1` });
  await workerPoint("merge-100", "gRPC 100-input transfer", { kind: "merge", grpcUrl: bs.grpcUrl, token, context: net.context, sender, batches: batches.slice(1), idPrefix: `${runId}-m100` });
  const engineBatches: string[][] = [];
  for (let i = 0; i < CFG.mergeReps; i++) engineBatches.push(await net.holdings(sender, 100, "1"));
  const latencies: number[] = [];
  const user = `cc-merger-${runId}`;
  for (const [i, batch] of engineBatches.entries()) {
    const sub = await submissionFromProto(mergeTransfer(net.context, sender, batch, `${runId}-me-${i}`).commands, user, bs.server.api.registry, bs.server.api.store);
    const t = performance.now();
    const out = await bs.server.api.ledger.submit(sub);
    latencies.push(performance.now() - t);
    if (out.kind !== "committed") log(`    engine merge rejected: ${out.error.message}`);
  }
  rows.print("engine-merge-100", { what: "baseline: 100-input transfer, engine only", stats: latencyStats(latencies) });
}

async function balance(net: CcNetwork) {
  log(`\n== Balance over ${HOLDINGS_FOR_BALANCE.toLocaleString("en-US")} holdings (latest open round's holding fees)`);
  const { parties, token } = await net.actors("cc-rich", 1);
  const owner = parties[0];
  const t = performance.now();
  await net.holdings(owner, HOLDINGS_FOR_BALANCE, "1.5");
  log(`  (setup: ${HOLDINGS_FOR_BALANCE} holdings in ${fmt((performance.now() - t) / 1000, 1)} s, 100 per transaction)`);
  const reps = CFG.balanceReps;
  const measure = async (fn: () => Promise<unknown> | unknown) => {
    const samples: number[] = [];
    let last: unknown;
    for (let i = 0; i < reps; i++) {
      const s = performance.now();
      last = await fn();
      samples.push(performance.now() - s);
    }
    return { stats: latencyStats(samples), last };
  };
  const t0 = performance.now();
  await getBalance(bs.server.wallet, owner);
  log(`  (first wallet balance call, which loads the party into the holdings index: ${fmt(performance.now() - t0, 1)} ms)`);
  const wallet = await measure(async () => (await getBalance(bs.server.wallet, owner)).effectiveUnlocked.toString());
  rows.print("balance-wallet", { what: "balance in process, the wallet's (holdings index)", stats: wallet.stats });
  const inproc = await measure(() => balanceInProcess(net, bs.server, owner));
  rows.print("balance-inproc", { what: "baseline: from the ACS (read + decode + fee math)", stats: inproc.stats });
  const grpc = await measure(() => balanceByGrpc(bs.grpcUrl, token, owner));
  rows.print("balance-grpc", { what: "balance via gRPC GetActiveContracts (client sums)", stats: grpc.stats });
  const file = join(bs.dataDir, "ledger.sqlite");
  const db = new Database(file, { readonly: true });
  const select = db.prepare(
    `SELECT c.record FROM active_stakeholders s JOIN contracts c ON c.contract_id = s.contract_id WHERE s.party = ?`,
  );
  const raw = await measure(() => select.all(owner).map((r) => JSON.parse((r as { record: string }).record)).length);
  db.close();
  rows.print("balance-raw", { what: "baseline: bare SQLite SELECT + JSON.parse of the rows", stats: raw.stats });
  const math = await measure(() => feeMathOnly(HOLDINGS_FOR_BALANCE));
  rows.print("balance-math", { what: "baseline: fee arithmetic alone (10,000 Numerics)", stats: math.stats });
  log(`  balance = ${String(wallet.last)} (ACS: ${String(inproc.last)}, gRPC: ${String(grpc.last)}), rows read raw: ${String(raw.last)}`);
}

async function main() {
  const started = performance.now();
  log(headerLine("ccwallet CC bench", QUICK));
  log("columns: throughput; latency percentiles; main = server event-loop busy time per op; cpu = whole-process CPU per op; other-procs = cores used by other processes");
  bs = await startBenchServer(100_000);
  try {
    const net = await ccNetwork(bs.server, runId);
    await transfers(net);
    await bigTransfer(net);
    await balance(net);
  } finally {
    await stopCcWorker();
    await bs.stop();
  }
  summary();
  log(`\ndone in ${fmt((performance.now() - started) / 1000, 1)} s`);
}

function summary() {
  const perSec = (k: string) => rows.perSec(k);
  const p50 = (k: string) => rows.ms(k);
  log("\n== Summary (issue #3 targets)");
  log(
    table(
      ["measure", "target", "measured", "baseline (same run)"],
      [
        ...SENDERS.flatMap((n) => [
          [`preapproved transfers/s, ${n} senders, gRPC`, n === 64 ? ">= 800/s" : "-", `${perSec(`send-grpc-${n}`)}/s`, `Iou create ${perSec(`iou-grpc-${n}`)}/s`],
          [`preapproved transfers/s, ${n} senders, JSON`, n === 64 ? ">= 800/s" : "-", `${perSec(`send-json-${n}`)}/s`, `Iou create ${perSec(`iou-json-${n}`)}/s`],
          [`  same, engine only (no API)`, "-", `${perSec(`engine-send-${n}`)}/s`, `Iou create ${perSec(`engine-iou-${n}`)}/s`],
        ]),
        ["100-input transfer latency p50 (gRPC)", "< 50 ms", p50("merge-100"), `1-input ${p50("merge-1")}; engine ${p50("engine-merge-100")}`],
        [`balance over ${HOLDINGS_FOR_BALANCE.toLocaleString("en-US")} holdings p50`, "-", `${p50("balance-wallet")} (wallet index)`, `ACS ${p50("balance-inproc")}; gRPC client ${p50("balance-grpc")}; SQLite+parse ${p50("balance-raw")}; math ${p50("balance-math")}`],
      ],
    ),
  );
  log(`written to ${rows.write("cc-latest", QUICK)}`);
}

await main();
