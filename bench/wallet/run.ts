/**
 * Wallet benchmark (issue #4): `npx tsx bench/wallet/run.ts` (about 1.5 min) or with
 * `BENCH_QUICK=1` (about 30 s). Loopback only, bounded, stops by itself. Clients run in a worker
 * thread (wallet-load.ts), so the server's event loop is measured alone.
 *
 * - transfer offers created AND completed per second over HTTP `/v0`, N concurrent senders (8, 32),
 *   each a closed loop: sender POST /v0/wallet/transfer-offers, receiver POST …/{cid}/accept,
 *   sender polls POST …/{tracking_id}/status until `completed` (the sender's wallet automation
 *   completes it); baseline in the same run: one Iou create over the JSON Ledger API (/v2) at the
 *   same concurrency. Default automation (all wallet triggers on).
 * - one-step preapproval sends, 32 senders, against the bare durable commit of a transfer (issue #10);
 * - GET /v0/wallet/balance latency for a user with 10,000 holdings, 1 and 4 clients; baselines:
 *   the same request for a user with 1 holding, and a bare HTTP echo; plus in process: the
 *   wallet's balance from the holdings index, and the ACS read + decode it replaced. On a node
 *   whose merge automation is off (it would otherwise merge the 10,000 holdings, 100 per pass).
 * Results: a summary table, and bench/results/wallet-latest.json (wallet-latest-quick.json when quick).
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { getBalance } from "../../src/wallet/use-cases/get-balance.js";
import { balanceInProcess } from "../cc/cc-balance.js";
import { ccNetwork } from "../cc/cc-network.js";
import { log } from "../lib/log.js";
import { combinedProbe, Probe, type ProbeResult } from "../lib/probe.js";
import { ResultRows } from "../lib/result-rows.js";
import { headerLine } from "../lib/run-facts.js";
import { sqliteTransferCommits } from "../lib/raw.js";
import { startBenchServer, startEchoServers, type BenchServer, type EchoServers } from "../lib/setup.js";
import { fmt, latencyStats, table } from "../lib/stats.js";
import { onboard, post, preapprovalSendActors } from "./wallet-actors.js";
import { runInWorker, stopWalletWorker, type Actor, type WalletResult, type WalletTask } from "./wallet-load.js";

const QUICK = process.env.BENCH_QUICK === "1";
/** `offers` or `balance`: run only that part (for profiling). */
const ONLY = process.env.BENCH_WALLET_ONLY;
const CFG = QUICK
  ? { warmupMs: 500, durationMs: 2500, balanceWarmupMs: 300, balanceMs: 1500, inProcessReps: 20, beforeReps: 3 }
  : { warmupMs: 2000, durationMs: 10_000, balanceWarmupMs: 1000, balanceMs: 5000, inProcessReps: 200, beforeReps: 7 };
const SENDERS = [8, 32] as const;
const BALANCE_CLIENTS = [1, 4] as const;
const HOLDINGS = 10_000;
const POLL_MS = 20;
const runId = Date.now().toString(36);
const rows = new ResultRows({ whatWidth: 56, mainCpu: true });

async function workerPoint(key: string, what: string, task: WalletTask): Promise<WalletResult> {
  const probe = new Probe();
  const r = await runInWorker(task, probe.mark);
  const extra = r.phases && {
    createP50: latencyStats(r.phases.create).p50,
    acceptP50: latencyStats(r.phases.accept).p50,
    pollsMean: latencyStats(r.phases.polls).mean,
  };
  const note = extra && `    phases p50: create ${fmt(extra.createP50, 1)} ms, accept ${fmt(extra.acceptP50, 1)} ms; status polls per offer ${fmt(extra.pollsMean, 1)} (every ${POLL_MS} ms)`;
  rows.printLoad(key, what, r, probe.result, extra, note);
  return r;
}

async function transferOffers(): Promise<void> {
  log("\n== Transfer offers over HTTP /v0: create (sender) → accept (receiver) → completed by the sender's wallet (status polled)");
  const bs = await startBenchServer(1000);
  try {
    const max = Math.max(...SENDERS);
    const pairs: { sender: Actor; receiver: Actor }[] = [];
    for (let i = 0; i < max; i++) {
      const sender = await onboard(bs, `offer-sender-${runId}-${i}`);
      const receiver = await onboard(bs, `offer-receiver-${runId}-${i}`);
      await post(bs, "/v0/wallet/tap", sender.token, { amount: "100000" });
      pairs.push({ sender, receiver });
    }
    const net = await ccNetwork(bs.server, runId);
    const iou = await net.actors("wallet-iou", max);
    for (const n of SENDERS) {
      const window = { warmupMs: CFG.warmupMs, durationMs: CFG.durationMs };
      await workerPoint(`iou-json-${n}`, `baseline: JSON /v2 Iou create, ${n} clients`, {
        kind: "cc",
        task: { kind: "iou", grpcUrl: bs.grpcUrl, httpUrl: bs.httpUrl, token: iou.token, parties: iou.parties.slice(0, n), ...window, idPrefix: `${runId}-iou-${n}` },
      });
      await workerPoint(`offers-${n}`, `transfer offers completed, ${n} senders (end-to-end)`, {
        kind: "offers", httpUrl: bs.httpUrl, pairs: pairs.slice(0, n), amount: "0.01", pollMs: POLL_MS, ...window, idPrefix: `${runId}-offer-${n}`,
      });
    }
  } finally {
    await bs.stop();
  }
}

/**
 * Issue #10's speed measure: one-step preapproval sends (`POST /v0/wallet/transfer-preapproval/send`)
 * by 32 senders to one receiver, against the bare durable commit of a transfer's shape (one row
 * deleted, two inserted, one fsync per transaction) on the same filesystem in the same run.
 */
/** Every wallet trigger off (issue #14: automation must not slow transfers by more than 10 %). */
const WALLET_AUTOMATION_OFF = {
  collectRewards: false,
  mergeHoldings: false,
  renewPreapprovals: false,
  pausedTriggers: ["complete accepted offers", "complete traffic requests", "expire transfer offers", "send transfer commands"],
};

async function preapprovalSends(): Promise<void> {
  log("\n== One-step preapproval sends over HTTP /v0, 32 senders, against the bare durable commit of a transfer");
  await sendsOn("sends-32", "preapproval sends, 32 senders", undefined);
  await sendsOn("sends-32-noauto", "same, wallet automation off", WALLET_AUTOMATION_OFF);
}

/**
 * How many sends windows the first (automation on) run alternates with bare commits: the two
 * sides of #10's ratio measured in turns, each mean over its windows, so the machine's drift over
 * a run (the bare rate moved 5–10 % between before and after) weighs less in the ratio.
 */
const SENDS_WINDOWS = QUICK ? 1 : 3;

async function sendsOn(key: string, what: string, automation: object | undefined): Promise<void> {
  const config = join(os.tmpdir(), `ccwallet-sends-bench-${process.pid}-${key}.json`);
  writeFileSync(config, JSON.stringify(automation ? { automation } : {}));
  const bs = await startBenchServer(1000, {}, { CCWALLET_CONFIG: config });
  try {
    const measureBare = bareRates.length === 0;
    const windows = measureBare ? SENDS_WINDOWS : 1;
    if (measureBare) bareCommits(bs, "before");
    const { receiver, senders } = await preapprovalSendActors(bs, `send-${runId}-${key}`, 32);
    // BENCH_PROFILE=1: the server's CPU profile during the sends, in $TMPDIR/ccwallet-<key>.cpuprofile (sends-32, sends-32-noauto).
    const session = process.env.BENCH_PROFILE ? new Session() : undefined;
    // BENCH_HEAP=1: a sampling profile of everything the server allocates (collected or not), in $TMPDIR/ccwallet-<key>.heapprofile.
    const heap = process.env.BENCH_HEAP ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
    }
    if (heap) {
      heap.connect();
      await heap.post("HeapProfiler.enable");
      await heap.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    const runs: { r: WalletResult; probe: ProbeResult | undefined }[] = [];
    for (let w = 1; w <= windows; w++) {
      const probe = new Probe();
      const task: WalletTask = {
        kind: "sends", httpUrl: bs.httpUrl, senders, receiver: receiver.party, amount: "0.01", warmupMs: CFG.warmupMs, durationMs: CFG.durationMs / windows, idPrefix: `${runId}-${key}-${w}`,
      };
      runs.push({ r: await runInWorker(task, probe.mark), probe: probe.result });
      // Again after each window: the machine's speed drifts over a run, and the ratio uses them all.
      if (measureBare) bareCommits(bs, w === windows ? "after" : `between-${w}`);
    }
    if (session) writeFileSync(join(os.tmpdir(), `ccwallet-${key}.cpuprofile`), JSON.stringify((await session.post("Profiler.stop")).profile));
    if (heap) writeFileSync(join(os.tmpdir(), `ccwallet-${key}.heapprofile`), JSON.stringify((await heap.post("HeapProfiler.stopSampling")).profile));
    const all: WalletResult = {
      latencies: runs.flatMap((x) => x.r.latencies),
      seconds: runs.reduce((a, x) => a + x.r.seconds, 0),
      errors: runs.reduce((a, x) => a + x.r.errors, 0),
      firstError: runs.find((x) => x.r.firstError)?.r.firstError,
    };
    const note = windows > 1 ? `    ${windows} windows alternating with the bare commit: ${runs.map((x) => fmt(x.r.latencies.length / x.r.seconds)).join(" / ")}/s` : undefined;
    rows.printLoad(key, what, all, combinedProbe(runs.map((x) => x.probe)), undefined, note);
  } finally {
    await bs.stop();
  }
}

/** The bare durable transfer commit rate, measured just before and just after the sends. */
const bareRates: number[] = [];
const bareTransferRate = () => (bareRates.length === 0 ? NaN : bareRates.reduce((a, b) => a + b, 0) / bareRates.length);

function bareCommits(bs: BenchServer, when: string): void {
  const bare = sqliteTransferCommits(bs.dataDir, QUICK ? 1 : 3);
  rows.keep(`bare-transfer-commit-${when}`, { what: `bare SQLite transfer commit (${when.replace("-", " ")} the sends)`, stats: { n: 0, p50: bare.p50, p90: NaN, p99: bare.p99, max: NaN, mean: NaN } });
  log(`  bare SQLite: 1 delete + 2 inserts per tx (WAL, synchronous=FULL), ${when.padEnd(9)} ${fmt(bare.perSec).padStart(7)} commits/s  p50 ${fmt(bare.p50, 3)} ms`);
  bareRates.push(bare.perSec);
}

async function balance(echo: EchoServers): Promise<void> {
  log(`\n== GET /v0/wallet/balance, a user with ${HOLDINGS.toLocaleString("en-US")} holdings (merge automation off)`);
  const config = join(os.tmpdir(), `ccwallet-wallet-bench-${process.pid}.json`);
  writeFileSync(config, JSON.stringify({ automation: { mergeHoldings: false } }));
  const bs = await startBenchServer(1000, {}, { CCWALLET_CONFIG: config });
  try {
    const rich = await onboard(bs, `rich-${runId}`);
    const poor = await onboard(bs, `poor-${runId}`);
    await post(bs, "/v0/wallet/tap", poor.token, { amount: "10" });
    const net = await ccNetwork(bs.server, runId);
    const t = performance.now();
    await net.holdings(rich.party, HOLDINGS, "1.5");
    log(`  (setup: ${HOLDINGS} holdings in ${fmt((performance.now() - t) / 1000, 1)} s, 100 per transaction)`);

    const cold = performance.now();
    const first = await fetch(`${bs.httpUrl}/v0/wallet/balance`, { headers: { authorization: `Bearer ${rich.token}` } });
    const body = (await first.json()) as { effective_unlocked_qty: string };
    rows.keep("balance-cold", { what: "first call (loads the party into the index)", stats: latencyStats([performance.now() - cold]) });
    log(`  first call (loads the party into the index): ${fmt(performance.now() - cold, 1)} ms; effective_unlocked_qty ${body.effective_unlocked_qty}`);

    const window = { warmupMs: CFG.balanceWarmupMs, durationMs: CFG.balanceMs };
    for (const c of BALANCE_CLIENTS) {
      await workerPoint(`echo-${c}`, `baseline: bare HTTP echo (POST {}), ${c} client${c > 1 ? "s" : ""}`, { kind: "request", httpUrl: echo.httpUrl, method: "POST", path: "/echo", body: "{}", clients: c, ...window });
      await workerPoint(`balance-1-${c}`, `baseline: balance, 1 holding, ${c} client${c > 1 ? "s" : ""}`, { kind: "request", httpUrl: bs.httpUrl, method: "GET", path: "/v0/wallet/balance", token: poor.token, clients: c, ...window });
      await workerPoint(`balance-10k-${c}`, `balance, ${HOLDINGS.toLocaleString("en-US")} holdings, ${c} client${c > 1 ? "s" : ""}`, { kind: "request", httpUrl: bs.httpUrl, method: "GET", path: "/v0/wallet/balance", token: rich.token, clients: c, ...window });
    }

    const measure = async (reps: number, fn: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < reps; i++) {
        const s = performance.now();
        await fn();
        samples.push(performance.now() - s);
      }
      return latencyStats(samples);
    };
    rows.print("inproc-index", { what: `in process: getBalance from the index (${HOLDINGS.toLocaleString("en-US")})`, stats: await measure(CFG.inProcessReps, () => getBalance(bs.server.wallet, rich.party)) });
    rows.print("inproc-acs", { what: "in process, before: ACS read + decode + fee math", stats: await measure(CFG.beforeReps, () => balanceInProcess(net, bs.server, rich.party)) });
  } finally {
    await bs.stop();
  }
}

async function main() {
  const started = performance.now();
  log(headerLine("ccwallet wallet bench", QUICK));
  log("columns: throughput; latency percentiles; main = server event-loop busy time per op (cpu = its CPU time); proc = whole-process CPU per op (incl. the client worker); other-procs = cores used by other processes");
  const echo = await startEchoServers();
  try {
    if (ONLY === undefined || ONLY === "sends") await preapprovalSends();
    if (ONLY === undefined || ONLY === "offers") await transferOffers();
    if (ONLY === undefined || ONLY === "balance") await balance(echo);
  } finally {
    await stopWalletWorker();
    await echo.stop();
  }
  summary();
  log(`\ndone in ${fmt((performance.now() - started) / 1000, 1)} s`);
}

function summary() {
  const perSec = (k: string) => `${rows.perSec(k)}/s`;
  const p = (k: string, q: "p50" | "p99") => rows.ms(k, q);
  const other = (k: string) => fmt(rows.get(k)?.foreignCores, 2);
  log("\n== Summary (issues #4 and #10: wallet targets)");
  log(
    table(
      ["measure", "target", "measured", "baseline (same run)", "other-procs"],
      [
        [
          "preapproval sends/s, 32 senders (HTTP /v0)",
          ">= 0.5x bare",
          `${perSec("sends-32")} (p50 ${p("sends-32", "p50")}, p99 ${p("sends-32", "p99")}); ${fmt(Number(rows.get("sends-32")?.perSec ?? NaN) / bareTransferRate(), 2)}x`,
          `bare SQLite transfer commit ${fmt(bareTransferRate())}/s (mean of ${bareRates.map((r) => fmt(r)).join(", ")}: before, between and after the windows)`,
          other("sends-32"),
        ],
        [
          "same, wallet automation off",
          "on >= 0.9x off",
          `${perSec("sends-32-noauto")}; on/off ${fmt(Number(rows.get("sends-32")?.perSec ?? NaN) / Number(rows.get("sends-32-noauto")?.perSec ?? NaN), 2)}x`,
          "-",
          other("sends-32-noauto"),
        ],
        [
          "plain submit-and-wait/s, 32 clients (JSON /v2 Iou create)",
          ">= 1.0x bare",
          `${perSec("iou-json-32")}; ${fmt(Number(rows.get("iou-json-32")?.perSec ?? NaN) / bareTransferRate(), 2)}x`,
          "the same bare commit (group commit makes one fsync serve many)",
          other("iou-json-32"),
        ],
        ...SENDERS.map((n) => [`transfer offers completed/s, ${n} senders (HTTP /v0)`, "-", `${perSec(`offers-${n}`)} (p50 ${p(`offers-${n}`, "p50")}, p99 ${p(`offers-${n}`, "p99")})`, `Iou create /v2 JSON ${perSec(`iou-json-${n}`)}`, other(`offers-${n}`)]),
        ...BALANCE_CLIENTS.map((c) => [
          `GET /v0/wallet/balance p99, ${HOLDINGS.toLocaleString("en-US")} holdings, ${c} cl.`,
          "< 20 ms",
          `${p(`balance-10k-${c}`, "p99")} (p50 ${p(`balance-10k-${c}`, "p50")})`,
          `1 holding ${p(`balance-1-${c}`, "p99")}; echo ${p(`echo-${c}`, "p99")}`,
          other(`balance-10k-${c}`),
        ]),
        ["balance in process p50 (index)", "-", p("inproc-index", "p50"), `before (ACS read + decode) ${p("inproc-acs", "p50")}`, "-"],
      ],
    ),
  );
  log(`written to ${rows.write("wallet-latest", QUICK)}`);
}

await main();
