/**
 * S4: catch-up read of many completions, on a fresh server holding exactly those (pre-populated
 * straight into the store), over gRPC (Connect and grpc-js clients, worker and inproc) and JSON;
 * baselines: bare SQLite read + parse, the store's own paged read, and a pre-encoded flood from
 * the native echo server (the client's floor).
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { CompletionRecord } from "../../src/ledger/records.js";
import { runTaskIn, type Placement, type ReadResult, type Target } from "../lib/loadgen.js";
import { Probe } from "../lib/probe.js";
import { sqliteReadCompletions } from "../lib/raw.js";
import { startBenchServer, startEchoServers, type BenchServer } from "../lib/setup.js";
import { fmt } from "../lib/stats.js";
import { CFG, log, runId } from "./config.js";

type Store = BenchServer["server"]["store"];
type ReadKind = "read-grpc" | "read-grpcjs" | "read-json";
export type CatchUpRead = ReadResult & { mainUsPerItem?: number; cpuUsPerItem?: number; foreignCores?: number };

export interface CatchUpResult {
  readonly rows: number;
  readonly fillSeconds: number;
  readonly bareSqliteSeconds: number;
  readonly storePagesSeconds: number;
  readonly reads: Record<string, CatchUpRead>;
}

/** A DUPLICATE_COMMAND rejection, the shape of a real one. */
function rejection(i: number, user: string, party: string, recordTime: bigint): Omit<CompletionRecord, "offset"> {
  return {
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
  };
}

/** Pre-populates n completions through store.commit; returns the seconds it took. */
async function fill(store: Store, n: number, user: string, party: string): Promise<number> {
  const recordTime = BigInt(Date.now()) * 1000n;
  const t0 = performance.now();
  const BATCH = 1000;
  for (let i = 0; i < n; i += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, n - i) }, (_, k) => store.commit({ kind: "rejection", completion: rejection(i + k, user, party, recordTime) })));
  }
  const fillSeconds = (performance.now() - t0) / 1000;
  log(`  pre-populate via store.commit (batches of ${BATCH}, group commit)  ${fmt(n / fillSeconds)} completions/s  (${fmt(fillSeconds, 2)} s)`);
  return fillSeconds;
}

/** The store's own read of every completion, in pages of 1000 (decodeRecord included). */
async function storePagesSeconds(store: Store): Promise<number> {
  const end = await store.ledgerEnd();
  const t = performance.now();
  let cursor = 0n;
  let storeRows = 0;
  for (;;) {
    const page = await store.completions(cursor, end, 1000);
    storeRows += page.length;
    if (page.length < 1000) break;
    cursor = page[page.length - 1].offset;
  }
  const seconds = (performance.now() - t) / 1000;
  log(`  baseline: store.completions() pages of 1000 (decodeRecord)      ${fmt(seconds, 3)} s  (${storeRows.toLocaleString("en-US")} rows)`);
  return seconds;
}

async function read(placement: Placement, kind: ReadKind, at: Target, user: string, n: number, isFlood: boolean): Promise<CatchUpRead> {
  const probe = new Probe();
  const r =
    kind !== "read-json"
      ? await runTaskIn<ReadResult>(placement, { kind, target: at, userId: user, beginExclusive: isFlood ? String(n) : "0", expect: n }, probe.mark)
      : await runTaskIn<ReadResult>(placement, { kind, target: at, userId: user, beginExclusive: "0", limit: n }, probe.mark);
  const pr = probe.result;
  const out = {
    ...r,
    mainUsPerItem: pr && r.count ? (pr.mainActiveMs * 1000) / r.count : undefined,
    cpuUsPerItem: pr && r.count ? (pr.processCpuMs * 1000) / r.count : undefined,
    foreignCores: pr?.foreignCores,
  };
  const what = (isFlood ? "baseline: pre-encoded flood, " : "") + (kind === "read-grpc" ? "gRPC CompletionStream, Connect client" : kind === "read-grpcjs" ? "gRPC CompletionStream, grpc-js client" : "JSON POST /v2/commands/completions?limit=" + n);
  log(
    `  ${what.padEnd(52)} ${placement.padEnd(6)} ${fmt(r.seconds, 3).padStart(6)} s  ${fmt(r.count / r.seconds)} items/s  items ${r.count.toLocaleString("en-US")}` +
      (Number.isNaN(r.firstItemMs) ? "" : `  first item ${fmt(r.firstItemMs, 1)} ms`) +
      (r.bytes ? `  ${(r.bytes / 1e6).toFixed(1)} MB` : "") +
      `  main ${fmt(out.mainUsPerItem, 1)} µs/item  other-procs ${fmt(pr?.foreignCores, 2)} cores` +
      (r.error ? `  ERROR ${r.error}` : ""),
  );
  return out;
}

/** Client floor: the same number of pre-encoded rejection completions from the native echo server, which reads and encodes nothing per item. */
async function reads(target: Target, user: string, n: number): Promise<Record<string, CatchUpRead>> {
  const echo = await startEchoServers();
  const flood: Target = { ...target, grpcUrl: echo.nativeUrl };
  const out: Record<string, CatchUpRead> = {};
  for (const [key, placement, kind, at] of [
    ["flood-grpc-worker", "worker", "read-grpc", flood],
    ["flood-grpcjs-worker", "worker", "read-grpcjs", flood],
    ["grpc-worker", "worker", "read-grpc", target],
    ["grpcjs-worker", "worker", "read-grpcjs", target],
    ["grpc-inproc", "inproc", "read-grpc", target],
    ["json-worker", "worker", "read-json", target],
  ] as const) {
    out[key] = await read(placement, kind, at, user, n, at === flood);
  }
  await echo.stop();
  return out;
}

export async function catchUp(): Promise<CatchUpResult> {
  const n = CFG.s4Rows;
  log(`\n== S4: catch-up read of ${n.toLocaleString("en-US")} completions (fresh server; list limit raised to ${(2 * n).toLocaleString("en-US")})`);
  const bs = await startBenchServer(2 * n);
  try {
    const { party, user, token } = await bs.partyUser(`s4-${runId}`);
    const fillSeconds = await fill(bs.server.store, n, user, party);
    const bare = sqliteReadCompletions(join(bs.dataDir, "ledger.sqlite"));
    log(`  baseline: bare SQLite SELECT + JSON.parse of all rows           ${fmt(bare.seconds, 3)} s  (${bare.rows.toLocaleString("en-US")} rows)`);
    const storeSeconds = await storePagesSeconds(bs.server.store);
    const target: Target = { grpcUrl: bs.grpcUrl, httpUrl: bs.httpUrl, token, party };
    return { rows: n, fillSeconds, bareSqliteSeconds: bare.seconds, storePagesSeconds: storeSeconds, reads: await reads(target, user, n) };
  } finally {
    await bs.stop();
  }
}
