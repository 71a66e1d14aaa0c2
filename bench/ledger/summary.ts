/** The summary table: each scenario's target vs measured vs the baseline measured in the same run. */
import { fmt } from "../lib/stats.js";
import type { CatchUpResult } from "./catch-up.js";
import type { S3Result } from "./completion-latency.js";
import { CONCURRENCY, OPEN_RATE, QUICK } from "./config.js";
import type { EngineResult } from "./engine-layer.js";
import type { LatencyAtRate } from "./latency-at-rate.js";
import type { RawBaselines } from "./raw-baselines.js";
import type { ThroughputPoints } from "./throughput.js";

export interface SummaryRow {
  scenario: string;
  target: string;
  measured: string;
  baseline: string;
  ratio: string;
  pass?: boolean;
}

export interface Measured {
  readonly raw: RawBaselines;
  readonly engine: EngineResult;
  readonly s1: ThroughputPoints;
  readonly s2: LatencyAtRate;
  readonly s3: Record<"submitAndWait" | "submit", S3Result>;
  readonly s4: CatchUpResult;
}

const ratio = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(0)}%` : "-");
const CLIENTS = [
  ["grpc", "connect", "Connect"],
  ["grpcjs", "grpcjs", "grpc-js"],
] as const;

function s1Rows(s1: ThroughputPoints): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const c of CONCURRENCY) {
    for (const [id, echoId, name] of CLIENTS) {
      const g = s1[`${id}-${c}`].stats;
      const ge = s1[`echo-native-${echoId}-${c}`].stats;
      rows.push({
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
    const j = s1[`json-${c}`].stats;
    const je = s1[`json-echo-${c}`].stats;
    rows.push({
      scenario: `S1 JSON submit-and-wait-for-tx, ${c} cl.`,
      target: c === 64 ? "≥ 1,000 cmd/s" : "-",
      measured: `${fmt(j.perSec)} cmd/s (p50 ${fmt(j.p50, 1)} / p99 ${fmt(j.p99, 1)} ms)`,
      baseline: `JSON echo ${fmt(je.perSec)}/s (p50 ${fmt(je.p50, 1)} / p99 ${fmt(je.p99, 1)})`,
      ratio: ratio(j.perSec, je.perSec),
      pass: c === 64 ? j.perSec >= 1000 : undefined,
    });
  }
  return rows;
}

/** The other server stacks, the Connect-served ledger and (full run) the 8-connection and inproc points. */
function s1VariantRows(s1: ThroughputPoints): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const [server, serverName] of [["connect", "Connect"], ["grpcjs", "grpc-js"]] as const) {
    for (const [, echoId, name] of CLIENTS) {
      const e = s1[`echo-${server}-${echoId}-64`].stats;
      const native = s1[`echo-native-${echoId}-64`].stats;
      rows.push({ scenario: `baseline: ${serverName}-server echo, ${name} cl., 64`, target: "-", measured: `${fmt(e.perSec)} calls/s (p50 ${fmt(e.p50, 1)} / p99 ${fmt(e.p99, 1)} ms)`, baseline: `native echo ${fmt(native.perSec)}/s`, ratio: ratio(e.perSec, native.perSec) });
    }
  }
  for (const [id, , name] of CLIENTS) {
    const before = s1[`${id}-64-connect-server`].stats;
    const now = s1[`${id}-64`].stats;
    rows.push({ scenario: `S1 gRPC 64 cl. via Connect server (before), ${name} cl.`, target: "-", measured: `${fmt(before.perSec)} cmd/s (p50 ${fmt(before.p50, 1)} / p99 ${fmt(before.p99, 1)} ms)`, baseline: `native: ${fmt(now.perSec)}/s`, ratio: ratio(before.perSec, now.perSec) });
  }
  if (!QUICK) {
    const g64 = s1["grpc-64"].stats;
    const je64 = s1["json-echo-64"].stats;
    const g8 = s1["grpc-64-8conn"].stats;
    rows.push({ scenario: "S1 gRPC 64 cl. over 8 HTTP/2 conns, Connect", target: "-", measured: `${fmt(g8.perSec)} cmd/s (p50 ${fmt(g8.p50, 1)} / p99 ${fmt(g8.p99, 1)} ms)`, baseline: `1 conn: ${fmt(g64.perSec)}/s`, ratio: ratio(g8.perSec, g64.perSec) });
    const gi = s1["grpc-64-inproc"].stats;
    const ji = s1["json-64-inproc"].stats;
    const gei = s1["echo-native-connect-64-inproc"].stats;
    rows.push({ scenario: "S1 gRPC 64 cl., Connect client inproc", target: "-", measured: `${fmt(gi.perSec)} cmd/s (p99 ${fmt(gi.p99, 1)} ms)`, baseline: `native echo inproc ${fmt(gei.perSec)}/s`, ratio: ratio(gi.perSec, gei.perSec) });
    rows.push({ scenario: "S1 JSON 64 cl., client inproc", target: "-", measured: `${fmt(ji.perSec)} cmd/s (p99 ${fmt(ji.p99, 1)} ms)`, baseline: `JSON echo (worker) ${fmt(je64.perSec)}/s`, ratio: ratio(ji.perSec, je64.perSec) });
  }
  return rows;
}

function s2Rows(s2: LatencyAtRate): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const [open, openEcho, name] of [
    [s2.grpc, s2.echo, "Connect"],
    [s2.grpcjs, s2.echoGrpcjs, "grpc-js"],
  ] as const) {
    rows.push({
      scenario: `S2 p99 @ ${OPEN_RATE} cmd/s offered (gRPC), ${name} client`,
      target: "≤ 25 ms",
      measured: `p99 ${fmt(open.stats.p99, 1)} ms (p50 ${fmt(open.stats.p50, 1)}, p90 ${fmt(open.stats.p90, 1)}, ${fmt(open.stats.perSec)}/s done)`,
      baseline: `native echo @${OPEN_RATE}/s p99 ${fmt(openEcho.stats.p99, 1)} ms`,
      ratio: "-",
      pass: open.stats.p99 <= 25 && open.stats.errors === 0,
    });
  }
  const json = s2.json.stats;
  rows.push({ scenario: `S2' same over JSON @ ${OPEN_RATE}/s`, target: "-", measured: `p99 ${fmt(json.p99, 1)} ms (p50 ${fmt(json.p50, 1)}, p90 ${fmt(json.p90, 1)})`, baseline: "-", ratio: "-" });
  return rows;
}

function s3Rows({ s3, s1, raw }: Measured): SummaryRow[] {
  const w = s3.submitAndWait;
  const a = s3.submit;
  return [
    {
      scenario: "S3 commit -> completion received, p50",
      target: "≤ 5 ms",
      measured: `${fmt(w.commitToCompletion.p50, 2)} ms (p99 ${fmt(w.commitToCompletion.p99, 2)}); async Submit: ${fmt(a.commitToCompletion.p50, 2)} (p99 ${fmt(a.commitToCompletion.p99, 2)})`,
      baseline: `native echo 1 cl. p50 ${fmt(s1["echo-native-connect-1"].stats.p50, 2)} ms`,
      ratio: "-",
      pass: w.commitToCompletion.p50 <= 5,
    },
    { scenario: "S3 SubmitAndWait returned -> completion", target: "-", measured: `p50 ${fmt(w.responseToCompletion?.p50, 2)} / p99 ${fmt(w.responseToCompletion?.p99, 2)} ms`, baseline: "-", ratio: "-" },
    {
      scenario: "S3 submit start -> completion",
      target: "-",
      measured: `SubmitAndWait p50 ${fmt(w.startToCompletion.p50, 2)} / p99 ${fmt(w.startToCompletion.p99, 2)}; Submit p50 ${fmt(a.startToCompletion.p50, 2)} / p99 ${fmt(a.startToCompletion.p99, 2)} ms`,
      baseline: `fsync p50 ${fmt(raw.fsync.p50, 2)} ms`,
      ratio: "-",
    },
  ];
}

function s4Rows(s4: CatchUpResult): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const gri = s4.reads["grpc-inproc"];
  const jr = s4.reads["json-worker"];
  for (const [key, name] of [
    ["grpc-worker", "Connect"],
    ["grpcjs-worker", "grpc-js"],
  ] as const) {
    const gr = s4.reads[key];
    const floor = s4.reads[`flood-${key}`];
    rows.push({
      scenario: `S4 catch-up ${s4.rows.toLocaleString("en-US")} completions, gRPC, ${name} client`,
      target: s4.rows === 100_000 ? "≤ 2 s" : "(≤ 2 s @100k)",
      measured: `${fmt(gr.seconds, 2)} s (${fmt(gr.count / gr.seconds)}/s)${gr.count < s4.rows ? ` ONLY ${gr.count}` : ""}${key === "grpc-worker" ? `; inproc ${fmt(gri.seconds, 2)} s` : ""}`,
      baseline: `client floor (pre-encoded flood) ${fmt(floor.seconds, 2)} s; SQLite read+parse ${fmt(s4.bareSqliteSeconds, 2)} s`,
      ratio: `${(gr.seconds / floor.seconds).toFixed(1)}× floor`,
      pass: s4.rows === 100_000 ? gr.seconds <= 2 && gr.count === s4.rows : undefined,
    });
  }
  rows.push({
    scenario: `S4 catch-up ${s4.rows.toLocaleString("en-US")} completions, JSON`,
    target: "-",
    measured: jr.error ? `ERROR ${jr.error.slice(0, 60)}` : `${fmt(jr.seconds, 2)} s (${fmt(jr.count / jr.seconds)}/s, ${((jr.bytes ?? 0) / 1e6).toFixed(0)} MB)`,
    baseline: `SQLite read+parse ${fmt(s4.bareSqliteSeconds, 2)} s`,
    ratio: `${(jr.seconds / s4.bareSqliteSeconds).toFixed(1)}× bare`,
  });
  return rows;
}

function rawAndEngineRows({ raw, engine, s1 }: Measured): SummaryRow[] {
  const [g64, gj64, j64] = [s1["grpc-64"].stats, s1["grpcjs-64"].stats, s1["json-64"].stats];
  return [
    { scenario: "raw fsync", target: "-", measured: `${fmt(raw.fsync.perSec)} fsync/s (p50 ${fmt(raw.fsync.p50, 3)} ms)`, baseline: "-", ratio: "-" },
    { scenario: "raw SQLite 1 row/tx", target: "-", measured: `${fmt(raw.sqlite.onePerTx.perSec)} commits/s`, baseline: "fsync", ratio: ratio(raw.sqlite.onePerTx.perSec, raw.fsync.perSec) },
    { scenario: "raw SQLite 64 rows/tx", target: "-", measured: `${fmt(raw.sqlite.grouped64.perSec)} rows/s`, baseline: "-", ratio: "-" },
    { scenario: "raw SQLite write set, 64 cmds/tx", target: "-", measured: `${fmt(raw.sqlite.writeSet64.perSec)} cmds/s ascending ids; ${fmt(raw.sqlite.writeSet64Hashed.perSec)} hashed ids`, baseline: "-", ratio: "-" },
    {
      scenario: "engine only (Ledger.submit) 1 / 64",
      target: "-",
      measured: `${fmt(engine.c1.stats.perSec)} / ${fmt(engine.c64.stats.perSec)} cmd/s (${fmt(engine.c64.mainUsPerOp, 0)} µs/cmd)`,
      baseline: `gRPC 64: ${fmt(g64.perSec)} (Connect cl.) / ${fmt(gj64.perSec)} (grpc-js cl.), JSON 64: ${fmt(j64.perSec)}`,
      ratio: "-",
    },
  ];
}

export function summaryRows(m: Measured): SummaryRow[] {
  return [...s1Rows(m.s1), ...s1VariantRows(m.s1), ...s2Rows(m.s2), ...s3Rows(m), ...s4Rows(m.s4), ...rawAndEngineRows(m)];
}

/** Throughput of the 64-client points over their echo baselines. */
export function ratios(s1: ThroughputPoints) {
  return {
    grpc64VsEcho: s1["grpc-64"].stats.perSec / s1["echo-native-connect-64"].stats.perSec,
    grpcjs64VsEcho: s1["grpcjs-64"].stats.perSec / s1["echo-native-grpcjs-64"].stats.perSec,
    json64VsEcho: s1["json-64"].stats.perSec / s1["json-echo-64"].stats.perSec,
  };
}
