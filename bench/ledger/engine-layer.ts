/**
 * Engine layer: the ledger without any API (in-process, no network): submissionFromProto +
 * Ledger.submit, so the API points can be read against what the ledger alone does.
 */
import { performance } from "node:perf_hooks";
import { submissionFromProto } from "../../src/api/convert/commands-proto.js";
import { iouCommands } from "../lib/clients.js";
import { measureWindow } from "../lib/measure-window.js";
import { Probe } from "../lib/probe.js";
import type { BenchServer } from "../lib/setup.js";
import { runStats } from "../lib/stats.js";
import { CFG, log, runId } from "./config.js";
import { pointCosts, type Point, type PointRecorder } from "./points.js";

export interface EngineResult {
  readonly c1: Point;
  readonly c64: Point;
}

async function enginePoint(rec: PointRecorder, bs: BenchServer, party: string, user: string, concurrency: number): Promise<Point> {
  const { api } = bs.server;
  let n = 0;
  const latencies: number[] = [];
  let errors = 0;
  const probe = new Probe();
  const m = rec.marks(probe, true);
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
  return rec.record({ id: `engine-${concurrency}`, what: `engine only (Ledger.submit), ${concurrency} concurrent`, placement: "inproc", concurrency, stats, ...pointCosts(probe.result, stats.n, m.commits()) });
}

export async function engineLayer(rec: PointRecorder, bs: BenchServer, party: string, user: string): Promise<EngineResult> {
  log("\n== Engine layer (no API, no network): submissionFromProto + Ledger.submit, in-process");
  const c1 = await enginePoint(rec, bs, party, user, 1);
  const c64 = await enginePoint(rec, bs, party, user, 64);
  return { c1, c64 };
}
