/** S2: latency at a fixed offered rate (open loop, latency from each command's scheduled send time). */
import { OPEN_RATE, log } from "./config.js";
import type { Point, PointRecorder } from "./points.js";
import type { Targets } from "./targets.js";

export interface LatencyAtRate {
  readonly echo: Point;
  readonly grpc: Point;
  readonly echoGrpcjs: Point;
  readonly grpcjs: Point;
  readonly json: Point;
}

export async function latencyAtRate(rec: PointRecorder, t: Targets): Promise<LatencyAtRate> {
  log(`\n== S2: open loop, ${OPEN_RATE} cmd/s offered over gRPC (latency from scheduled send time)`);
  const echo = await rec.open("open-echo", `baseline native echo @ ${OPEN_RATE}/s, Connect client`, "grpc-echo", t.nativeEcho, "worker");
  const grpc = await rec.open("open-grpc", `gRPC SubmitAndWaitForTx @ ${OPEN_RATE}/s, Connect client`, "grpc-submit", t.ledger, "worker");
  const echoGrpcjs = await rec.open("open-echo-grpcjs", `baseline native echo @ ${OPEN_RATE}/s, grpc-js client`, "grpcjs-echo", t.nativeEcho, "worker");
  const grpcjs = await rec.open("open-grpcjs", `gRPC SubmitAndWaitForTx @ ${OPEN_RATE}/s, grpc-js client`, "grpcjs-submit", t.ledger, "worker");
  const json = await rec.open("open-json", `JSON submit-and-wait-for-tx @ ${OPEN_RATE}/s`, "json-submit", t.ledger, "worker");
  return { echo, grpc, echoGrpcjs, grpcjs, json };
}
