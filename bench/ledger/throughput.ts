/**
 * S1: closed-loop throughput of submit-and-wait-for-transaction (one Iou create) over gRPC
 * (Connect and grpc-js clients) and JSON, each point next to its echo baseline; then the echo on
 * other gRPC server stacks, the ledger served by the Connect adapter (the path before
 * native-grpc.ts), and (full run) 8 HTTP/2 connections and the client on the server's event loop.
 */
import type { Target } from "../lib/loadgen.js";
import { startBenchServer } from "../lib/setup.js";
import { CFG, CONCURRENCY, QUICK, log, runId } from "./config.js";
import type { Point, PointRecorder } from "./points.js";
import type { Targets } from "./targets.js";

/** S1 points by key (`grpc-64`, `echo-native-connect-64`, ...), as the summary reads them. */
export type ThroughputPoints = Record<string, Point>;

async function sweep(rec: PointRecorder, t: Targets, s1: ThroughputPoints): Promise<void> {
  for (const c of CONCURRENCY) {
    s1[`echo-native-connect-${c}`] = await rec.closed(`echo-native-connect-${c}`, `baseline native echo, Connect client, ${c} cl.`, "grpc-echo", t.nativeEcho, c, "worker", CFG.echoMs);
    s1[`grpc-${c}`] = await rec.closed(`grpc-${c}`, `gRPC SubmitAndWaitForTx, Connect client, ${c} cl.`, "grpc-submit", t.ledger, c, "worker", CFG.durationMs);
    s1[`echo-native-grpcjs-${c}`] = await rec.closed(`echo-native-grpcjs-${c}`, `baseline native echo, grpc-js client, ${c} cl.`, "grpcjs-echo", t.nativeEcho, c, "worker", CFG.echoMs);
    s1[`grpcjs-${c}`] = await rec.closed(`grpcjs-${c}`, `gRPC SubmitAndWaitForTx, grpc-js client, ${c} cl.`, "grpcjs-submit", t.ledger, c, "worker", CFG.durationMs);
    s1[`json-echo-${c}`] = await rec.closed(`json-echo-${c}`, `baseline HTTP/1.1 JSON echo, ${c} clients`, "json-echo", t.echo, c, "worker", CFG.echoMs);
    s1[`json-${c}`] = await rec.closed(`json-${c}`, `JSON submit-and-wait-for-transaction, ${c} cl.`, "json-submit", t.ledger, c, "worker", CFG.durationMs);
  }
}

async function otherEchoStacks(rec: PointRecorder, t: Targets, s1: ThroughputPoints): Promise<void> {
  log("  -- the bare echo on the other server stacks, 64 clients (Connect server = what served gRPC before; grpc-js server):");
  s1["echo-connect-connect-64"] = await rec.closed("echo-connect-connect-64", "baseline Connect-server echo, Connect client", "grpc-echo", t.echo, 64, "worker", CFG.echoMs);
  s1["echo-connect-grpcjs-64"] = await rec.closed("echo-connect-grpcjs-64", "baseline Connect-server echo, grpc-js client", "grpcjs-echo", t.echo, 64, "worker", CFG.echoMs);
  s1["echo-grpcjs-connect-64"] = await rec.closed("echo-grpcjs-connect-64", "baseline grpc-js-server echo, Connect client", "grpc-echo", t.grpcJsEcho, 64, "worker", CFG.echoMs);
  s1["echo-grpcjs-grpcjs-64"] = await rec.closed("echo-grpcjs-grpcjs-64", "baseline grpc-js-server echo, grpc-js client", "grpcjs-echo", t.grpcJsEcho, 64, "worker", CFG.echoMs);
}

/** The ledger with plain gRPC served by the Connect adapter, on a server of its own. */
async function connectServedLedger(rec: PointRecorder, s1: ThroughputPoints): Promise<void> {
  log("  -- the ledger with plain gRPC served by the Connect adapter (before native-grpc.ts), 64 clients:");
  const connectServed = await startBenchServer(10_000, { grpcTransport: "connect" });
  const cs = await connectServed.partyUser(`s1c-${runId}`);
  const target: Target = { grpcUrl: connectServed.grpcUrl, httpUrl: connectServed.httpUrl, token: cs.token, party: cs.party };
  s1["grpc-64-connect-server"] = await rec.closed("grpc-64-connect-server", "gRPC SubmitAndWaitForTx via Connect server, Connect cl.", "grpc-submit", target, 64, "worker", CFG.durationMs);
  s1["grpcjs-64-connect-server"] = await rec.closed("grpcjs-64-connect-server", "gRPC SubmitAndWaitForTx via Connect server, grpc-js cl.", "grpcjs-submit", target, 64, "worker", CFG.durationMs);
  await connectServed.stop();
}

/** Full run only: 64 clients over 8 HTTP/2 connections, and 64 clients on the server's event loop. */
async function fullRunExtras(rec: PointRecorder, t: Targets, s1: ThroughputPoints): Promise<void> {
  s1["grpc-64-8conn"] = await rec.closed("grpc-64-8conn", "gRPC SubmitAndWaitForTx, 64 cl. / 8 conns", "grpc-submit", t.ledger, 64, "worker", CFG.durationMs, 8);
  log("  -- same at 64 clients with the client on the server's event loop (inproc):");
  s1["echo-native-connect-64-inproc"] = await rec.closed("echo-native-connect-64", "baseline native echo, Connect client, 64 cl.", "grpc-echo", t.nativeEcho, 64, "inproc", CFG.echoMs);
  s1["grpc-64-inproc"] = await rec.closed("grpc-64", "gRPC SubmitAndWaitForTx, Connect client, 64 cl.", "grpc-submit", t.ledger, 64, "inproc", CFG.durationMs);
  s1["json-64-inproc"] = await rec.closed("json-64", "JSON submit-and-wait-for-transaction, 64 cl.", "json-submit", t.ledger, 64, "inproc", CFG.durationMs);
}

export async function throughput(rec: PointRecorder, t: Targets): Promise<ThroughputPoints> {
  log("\n== S1: submit-and-wait-for-transaction, one Iou create; each point next to its echo baseline");
  log("  gRPC clients: Connect (@connectrpc/connect-node) and grpc-js (@grpc/grpc-js); echo = the same constant unary answer");
  log("  from ccwallet's native gRPC handler (the ledger's own transport), so the ratio isolates the ledger's work");
  const s1: ThroughputPoints = {};
  await sweep(rec, t, s1);
  await otherEchoStacks(rec, t, s1);
  await connectServedLedger(rec, s1);
  if (!QUICK) await fullRunExtras(rec, t, s1);
  return s1;
}
