/**
 * Load-generator tasks. Each runs either in the bench's main thread (same event loop as the
 * server) or in a worker thread (own event loop and core: a separate client, as in production).
 * All timing is taken inside the thread that runs the task.
 */
import { performance } from "node:perf_hooks";
import { closedLoops, type LoopsResult } from "./closed-loops.js";
import { measureWindow } from "./measure-window.js";
import { TaskWorker, type Mark } from "./task-worker.js";
import { grpcClients, grpcRequests, grpcTransport, iouJson, jsonClient } from "./clients.js";
import { grpcJsClients } from "./grpcjs-clients.js";

/** grpc-*: the Connect gRPC client; grpcjs-*: the @grpc/grpc-js client; json-*: HTTP/1.1 + JSON. */
export type Op = "grpc-submit" | "json-submit" | "grpc-echo" | "json-echo" | "grpcjs-submit" | "grpcjs-echo";

export interface Target {
  readonly grpcUrl: string;
  readonly httpUrl: string;
  readonly token: string;
  readonly party: string;
}

export type Task =
  | {
      readonly kind: "closed";
      readonly op: Op;
      readonly target: Target;
      readonly concurrency: number;
      readonly warmupMs: number;
      readonly durationMs: number;
      readonly idPrefix: string;
      /** gRPC: HTTP/2 connections the callers are spread over (default 1, like one client channel). */
      readonly sessions?: number;
    }
  | { readonly kind: "open"; readonly op: Op; readonly target: Target; readonly ratePerSec: number; readonly warmupMs: number; readonly durationMs: number; readonly idPrefix: string }
  | { readonly kind: "read-grpc" | "read-grpcjs"; readonly target: Target; readonly userId: string; readonly beginExclusive: string; readonly expect: number }
  | { readonly kind: "read-json"; readonly target: Target; readonly userId: string; readonly beginExclusive: string; readonly limit: number };

type ReadStreamTask = Extract<Task, { kind: "read-grpc" | "read-grpcjs" }>;

export interface LoadResult extends LoopsResult {
  /** Open loop: highest number of requests in flight; how late the generator itself ran (p99 ms). */
  readonly maxInFlight?: number;
}

export interface ReadResult {
  readonly seconds: number;
  readonly count: number;
  readonly firstItemMs: number;
  readonly bytes?: number;
  readonly error?: string;
}

function makeOp(op: Op, t: Target, idPrefix: string, concurrency: number): { run: () => Promise<void>; close: () => void } {
  let n = 0;
  const id = () => `${idPrefix}-${n++}`;
  switch (op) {
    case "grpc-submit": {
      const c = grpcClients(grpcTransport(t.grpcUrl, t.token));
      return {
        run: async () => {
          const res = await c.commands.submitAndWaitForTransaction(grpcRequests.submitAndWaitForTransaction(t.party, id()));
          if (!res.transaction?.updateId) throw new Error("no transaction in response");
        },
        close: () => undefined,
      };
    }
    case "grpc-echo": {
      const c = grpcClients(grpcTransport(t.grpcUrl));
      return {
        run: async () => {
          const res = await c.version.getLedgerApiVersion({});
          if (!res.version) throw new Error("no version in response");
        },
        close: () => undefined,
      };
    }
    case "grpcjs-submit": {
      const c = grpcJsClients(t.grpcUrl, t.token);
      return {
        run: async () => {
          const res = await c.submitAndWaitForTransaction(t.party, id());
          if (!(res.transaction as { updateId?: string } | undefined)?.updateId) throw new Error("no transaction in response");
        },
        close: () => c.close(),
      };
    }
    case "grpcjs-echo": {
      const c = grpcJsClients(t.grpcUrl);
      return {
        run: async () => {
          const res = await c.getLedgerApiVersion();
          if (!res.version) throw new Error("no version in response");
        },
        close: () => c.close(),
      };
    }
    case "json-submit":
    case "json-echo": {
      const c = jsonClient(t.httpUrl, t.token, concurrency);
      const path = op === "json-submit" ? "/v2/commands/submit-and-wait-for-transaction" : "/echo";
      return {
        run: async () => {
          const res = await c.post(path, iouJson(t.party, id()));
          if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 300)}`);
        },
        close: () => c.close(),
      };
    }
  }
}

async function closedLoop(task: Extract<Task, { kind: "closed" }>, mark: Mark): Promise<LoadResult> {
  const sessions = Math.max(1, Math.min(task.sessions ?? 1, task.concurrency));
  const ops = Array.from({ length: sessions }, (_, i) => makeOp(task.op, task.target, `${task.idPrefix}-s${i}`, Math.ceil(task.concurrency / sessions)));
  const r = await closedLoops(task.concurrency, { warmupMs: task.warmupMs, durationMs: task.durationMs, maxErrors: 1000 }, mark, (i) => ops[i % sessions].run());
  for (const op of ops) op.close();
  return r;
}

async function openLoop(task: Extract<Task, { kind: "open" }>, mark: Mark): Promise<LoadResult> {
  const op = makeOp(task.op, task.target, task.idPrefix, 256);
  const interval = 1000 / task.ratePerSec;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let inFlight = 0;
  let maxInFlight = 0;
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  const { from, to, closed } = measureWindow(t0, task.warmupMs, task.durationMs, mark);
  const total = Math.round(((task.warmupMs + task.durationMs) / 1000) * task.ratePerSec);
  let next = 0;
  const send = (scheduled: number) => {
    inFlight++;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    pending.push(
      op.run().then(
        () => {
          inFlight--;
          if (scheduled >= from && scheduled < to) latencies.push(performance.now() - scheduled);
        },
        (e: unknown) => {
          inFlight--;
          errors++;
          firstError ??= String((e as Error)?.message ?? e);
        },
      ),
    );
  };
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && t0 + next * interval <= now) send(t0 + next++ * interval);
      if (next < total) setTimeout(tick, Math.max(0, t0 + next * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  await closed;
  op.close();
  return { latencies, seconds: task.durationMs / 1000, errors, firstError, maxInFlight };
}

async function readGrpc(task: ReadStreamTask, mark: Mark): Promise<ReadResult> {
  const c = grpcClients(grpcTransport(task.target.grpcUrl, task.target.token));
  const abort = new AbortController();
  let count = 0;
  let firstItemMs = NaN;
  mark("start");
  const t0 = performance.now();
  try {
    for await (const r of c.completions.completionStream(
      { userId: task.userId, parties: [task.target.party], beginExclusive: BigInt(task.beginExclusive) },
      { signal: abort.signal },
    )) {
      if (r.completionResponse.case !== "completion") continue;
      if (count === 0) firstItemMs = performance.now() - t0;
      if (++count >= task.expect) break;
    }
  } catch (e) {
    if (count < task.expect) return { seconds: (performance.now() - t0) / 1000, count, firstItemMs, error: String(e) };
  } finally {
    abort.abort();
    mark("end");
  }
  return { seconds: (performance.now() - t0) / 1000, count, firstItemMs };
}

async function readGrpcJs(task: ReadStreamTask, mark: Mark): Promise<ReadResult> {
  const c = grpcJsClients(task.target.grpcUrl, task.target.token);
  let count = 0;
  let firstItemMs = NaN;
  mark("start");
  const t0 = performance.now();
  const stream = c.completionStream({ userId: task.userId, parties: [task.target.party], beginExclusive: task.beginExclusive });
  const error = await new Promise<string | undefined>((resolve) => {
    stream.on("data", (r: { completion?: unknown }) => {
      if (!r.completion) return;
      if (count === 0) firstItemMs = performance.now() - t0;
      if (++count >= task.expect) {
        stream.cancel();
        resolve(undefined);
      }
    });
    stream.on("error", (e: Error) => resolve(count < task.expect ? String(e) : undefined));
    stream.on("end", () => resolve(count < task.expect ? "stream ended early" : undefined));
  });
  const seconds = (performance.now() - t0) / 1000;
  mark("end");
  c.close();
  return { seconds, count, firstItemMs, error };
}

async function readJson(task: Extract<Task, { kind: "read-json" }>, mark: Mark): Promise<ReadResult> {
  const c = jsonClient(task.target.httpUrl, task.target.token, 1);
  mark("start");
  const t0 = performance.now();
  const res = await c.post(
    `/v2/commands/completions?limit=${task.limit}&stream_idle_timeout_ms=2000`,
    JSON.stringify({ userId: task.userId, parties: [task.target.party], beginExclusive: Number(task.beginExclusive) }),
  );
  const seconds = (performance.now() - t0) / 1000;
  mark("end");
  c.close();
  if (res.status !== 200) return { seconds, count: 0, firstItemMs: NaN, error: `HTTP ${res.status}: ${res.body.slice(0, 300)}` };
  const items = JSON.parse(res.body) as unknown[];
  return { seconds, count: items.length, firstItemMs: NaN, bytes: res.body.length };
}

export function runTask(task: Task, mark: Mark = () => undefined): Promise<LoadResult | ReadResult> {
  switch (task.kind) {
    case "closed":
      return closedLoop(task, mark);
    case "open":
      return openLoop(task, mark);
    case "read-grpc":
      return readGrpc(task, mark);
    case "read-grpcjs":
      return readGrpcJs(task, mark);
    case "read-json":
      return readJson(task, mark);
  }
}

export type Placement = "worker" | "inproc";

/** One long-lived load-generator worker thread, running one task at a time. */
const worker = new TaskWorker<Task, LoadResult | ReadResult>(new URL("./loadgen-worker.mjs", import.meta.url));

export const stopWorker = (): Promise<void> => worker.stop();

/** Runs a task in this thread or in the load-generator worker thread. */
export function runTaskIn<T extends LoadResult | ReadResult>(placement: Placement, task: Task, mark: Mark = () => undefined): Promise<T> {
  return (placement === "inproc" ? runTask(task, mark) : worker.run(task, mark)) as Promise<T>;
}
