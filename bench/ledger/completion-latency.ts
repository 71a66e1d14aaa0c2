/**
 * S3: completion delivery latency. A gRPC CompletionStream stays open while commands go one at a
 * time (SubmitAndWait, then async Submit); each completion's arrival is set against its commit
 * instant (taken inside the server), the call's return and the call's start.
 */
import { performance } from "node:perf_hooks";
import { grpcClients, grpcRequests, grpcTransport, type GrpcClients } from "../lib/clients.js";
import type { BenchServer } from "../lib/setup.js";
import { fmt, latencyStats, type LatencyStats } from "../lib/stats.js";
import { CFG, log, runId } from "./config.js";

type Mode = "submitAndWait" | "submit";
type Store = BenchServer["server"]["store"];

export interface S3Result {
  readonly count: number;
  readonly commitToCompletion: LatencyStats;
  readonly responseToCompletion?: LatencyStats;
  readonly startToCompletion: LatencyStats;
  readonly callLatency: LatencyStats;
  readonly missing: number;
}

/**
 * Commit instants, from inside the server: the store calls ledger-end listeners right after the
 * SQLite transaction (and its fsync) returns. Registered before the stream's own listener.
 */
async function commitInstants(store: Store) {
  const at = new Map<bigint, number>();
  let lastEnd = await store.ledgerEnd();
  const unsubscribe = store.onLedgerEnd((end) => {
    const t = performance.now();
    for (let o = lastEnd + 1n; o <= end; o++) at.set(o, t);
    lastEnd = end;
  });
  return { at, unsubscribe };
}

/** Reads the completion stream from `begin`, noting when each command's completion arrived. */
function completionArrivals(clients: GrpcClients, user: string, party: string, begin: bigint) {
  const abort = new AbortController();
  const arrivals = new Map<string, { t: number; offset: bigint; ok: boolean }>();
  let waiter: { id: string; resolve: () => void } | undefined;
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
  return {
    arrivals,
    /** Resolves when the completion of command `id` has arrived; call before submitting it. */
    arrival: (id: string) =>
      new Promise<void>((resolve) => {
        waiter = { id, resolve };
        if (arrivals.has(id)) resolve();
      }),
    stop: async () => {
      abort.abort();
      await reading;
    },
  };
}

async function completionLatency(bs: BenchServer, mode: Mode): Promise<S3Result> {
  const { party, user, token } = await bs.partyUser(`s3-${mode}-${runId}`);
  const store = bs.server.store;
  const commits = await commitInstants(store);
  const clients = grpcClients(grpcTransport(bs.grpcUrl, token));
  const stream = completionArrivals(clients, user, party, await store.ledgerEnd());
  const commitToCompletion: number[] = [];
  const responseToCompletion: number[] = [];
  const startToCompletion: number[] = [];
  const callLatency: number[] = [];
  let missing = 0;
  for (let i = 0; i < CFG.s3Count + 20; i++) {
    const id = `${runId}-s3-${mode}-${i}`;
    const arrived = stream.arrival(id);
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
    const a = stream.arrivals.get(id)!;
    const committed = commits.at.get(a.offset);
    if (committed !== undefined) commitToCompletion.push(a.t - committed);
    if (mode === "submitAndWait") responseToCompletion.push(a.t - t1);
    startToCompletion.push(a.t - t0);
    callLatency.push(t1 - t0);
  }
  await stream.stop();
  commits.unsubscribe();
  return {
    count: startToCompletion.length,
    commitToCompletion: latencyStats(commitToCompletion),
    responseToCompletion: mode === "submitAndWait" ? latencyStats(responseToCompletion) : undefined,
    startToCompletion: latencyStats(startToCompletion),
    callLatency: latencyStats(callLatency),
    missing,
  };
}

function printResult(mode: Mode, r: S3Result): void {
  const row = (name: string, s: LatencyStats | undefined) =>
    s && log(`  ${mode.padEnd(14)} ${name.padEnd(34)} p50 ${fmt(s.p50, 3).padStart(7)}  p90 ${fmt(s.p90, 3).padStart(7)}  p99 ${fmt(s.p99, 3).padStart(7)}  max ${fmt(s.max, 3).padStart(7)} ms  (n=${s.n})`);
  row("commit -> completion received", r.commitToCompletion);
  row("call returned -> completion received", r.responseToCompletion);
  row("call start -> completion received", r.startToCompletion);
  row(mode === "submit" ? "Submit call (answered once durable)" : "SubmitAndWait call", r.callLatency);
  if (r.missing) log(`  ${r.missing} completions did not arrive within 5 s`);
}

export async function completionDelivery(bs: BenchServer): Promise<Record<Mode, S3Result>> {
  log("\n== S3: completion delivery (gRPC CompletionStream open; commands one at a time, in-process client)");
  log("  commit instant = the store's ledger-end notification (right after the SQLite commit returns), taken inside the server");
  const s3 = {} as Record<Mode, S3Result>;
  for (const mode of ["submitAndWait", "submit"] as const) {
    s3[mode] = await completionLatency(bs, mode);
    printResult(mode, s3[mode]);
  }
  return s3;
}
