/**
 * Load-generator tasks. Each runs either in the bench's main thread (same event loop as the
 * server) or in a worker thread (own event loop and core: a separate client, as in production).
 * All timing is taken inside the thread that runs the task.
 */
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { grpcClients, grpcRequests, grpcTransport, iouJson, jsonClient } from "./clients.js";

export type Op = "grpc-submit" | "json-submit" | "grpc-echo" | "json-echo";

export interface Target {
  readonly grpcUrl: string;
  readonly httpUrl: string;
  readonly token: string;
  readonly party: string;
}

export type Task =
  | { readonly kind: "closed"; readonly op: Op; readonly target: Target; readonly concurrency: number; readonly warmupMs: number; readonly durationMs: number; readonly idPrefix: string }
  | { readonly kind: "open"; readonly op: Op; readonly target: Target; readonly ratePerSec: number; readonly warmupMs: number; readonly durationMs: number; readonly idPrefix: string }
  | { readonly kind: "read-grpc"; readonly target: Target; readonly userId: string; readonly beginExclusive: string; readonly expect: number }
  | { readonly kind: "read-json"; readonly target: Target; readonly userId: string; readonly beginExclusive: string; readonly limit: number };

export interface LoadResult {
  /** Latencies (ms) of operations that completed inside the measured window. */
  readonly latencies: number[];
  readonly seconds: number;
  readonly errors: number;
  readonly firstError?: string;
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

async function closedLoop(task: Extract<Task, { kind: "closed" }>): Promise<LoadResult> {
  const op = makeOp(task.op, task.target, task.idPrefix, task.concurrency);
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  const from = t0 + task.warmupMs;
  const to = from + task.durationMs;
  const worker = async () => {
    for (;;) {
      const start = performance.now();
      if (start >= to) return;
      try {
        await op.run();
        const end = performance.now();
        if (start >= from && end <= to) latencies.push(end - start);
      } catch (e) {
        errors++;
        firstError ??= String((e as Error)?.message ?? e);
        if (errors > 1000) return;
      }
    }
  };
  await Promise.all(Array.from({ length: task.concurrency }, worker));
  op.close();
  return { latencies, seconds: task.durationMs / 1000, errors, firstError };
}

async function openLoop(task: Extract<Task, { kind: "open" }>): Promise<LoadResult> {
  const op = makeOp(task.op, task.target, task.idPrefix, 256);
  const interval = 1000 / task.ratePerSec;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let inFlight = 0;
  let maxInFlight = 0;
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  const from = t0 + task.warmupMs;
  const total = Math.round(((task.warmupMs + task.durationMs) / 1000) * task.ratePerSec);
  let next = 0;
  const send = (scheduled: number) => {
    inFlight++;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    pending.push(
      op.run().then(
        () => {
          inFlight--;
          if (scheduled >= from) latencies.push(performance.now() - scheduled);
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
  op.close();
  return { latencies, seconds: task.durationMs / 1000, errors, firstError, maxInFlight };
}

async function readGrpc(task: Extract<Task, { kind: "read-grpc" }>): Promise<ReadResult> {
  const c = grpcClients(grpcTransport(task.target.grpcUrl, task.target.token));
  const abort = new AbortController();
  let count = 0;
  let firstItemMs = NaN;
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
  }
  return { seconds: (performance.now() - t0) / 1000, count, firstItemMs };
}

async function readJson(task: Extract<Task, { kind: "read-json" }>): Promise<ReadResult> {
  const c = jsonClient(task.target.httpUrl, task.target.token, 1);
  const t0 = performance.now();
  const res = await c.post(
    `/v2/commands/completions?limit=${task.limit}&stream_idle_timeout_ms=2000`,
    JSON.stringify({ userId: task.userId, parties: [task.target.party], beginExclusive: Number(task.beginExclusive) }),
  );
  const seconds = (performance.now() - t0) / 1000;
  c.close();
  if (res.status !== 200) return { seconds, count: 0, firstItemMs: NaN, error: `HTTP ${res.status}: ${res.body.slice(0, 300)}` };
  const items = JSON.parse(res.body) as unknown[];
  return { seconds, count: items.length, firstItemMs: NaN, bytes: res.body.length };
}

export function runTask(task: Task): Promise<LoadResult | ReadResult> {
  switch (task.kind) {
    case "closed":
      return closedLoop(task);
    case "open":
      return openLoop(task);
    case "read-grpc":
      return readGrpc(task);
    case "read-json":
      return readJson(task);
  }
}

export type Placement = "worker" | "inproc";

/** Runs a task in this thread or in a fresh worker thread (which then exits). */
export function runTaskIn<T extends LoadResult | ReadResult>(placement: Placement, task: Task): Promise<T> {
  if (placement === "inproc") return runTask(task) as Promise<T>;
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL("./loadgen-worker.mjs", import.meta.url), { workerData: task });
    w.once("message", (m: T) => {
      resolve(m);
      void w.terminate();
    });
    w.once("error", reject);
    w.once("exit", (code) => code !== 0 && code !== 1 && reject(new Error(`load worker exited with ${code}`)));
  });
}
