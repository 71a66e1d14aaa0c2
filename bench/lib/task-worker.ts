/**
 * Load tasks in a worker thread: the client gets its own event loop (and core), as a separate
 * client process would, and the server's main thread is measured alone. Both sides of the small
 * protocol: the worker runs tasks one at a time, relaying window marks and the result.
 */
import { parentPort, Worker } from "node:worker_threads";

/** The start and end of a task's measurement window, reported as they happen. */
export type Mark = (m: "start" | "end") => void;

type Message<R> = { id: number; mark: "start" | "end" } | { id: number; result: R } | { id: number; error: string };

/** Worker side (the worker's entry module calls it once). */
export function serveTasks<T, R>(run: (task: T, mark: Mark) => Promise<R>): void {
  let queue: Promise<void> = Promise.resolve();
  parentPort!.on("message", ({ id, task }: { id: number; task: T }) => {
    queue = queue.then(async () => {
      try {
        const result = await run(task, (mark) => parentPort!.postMessage({ id, mark }));
        parentPort!.postMessage({ id, result });
      } catch (e) {
        parentPort!.postMessage({ id, error: String((e as Error)?.stack ?? e) });
      }
    });
  });
}

/** Main side: one long-lived worker thread, started on first use (~0.4 s to boot through tsx). */
export class TaskWorker<T, R> {
  private worker?: Worker;
  private next = 0;
  private readonly handlers = new Map<number, (m: Message<R>) => void>();

  /** `entry`: a `.mjs` bootstrap that loads the TypeScript entry through tsx. */
  constructor(private readonly entry: URL) {}

  run(task: T, mark: Mark = () => undefined): Promise<R> {
    const worker = this.started();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.handlers.set(id, (m) => {
        if ("mark" in m) return mark(m.mark);
        this.handlers.delete(id);
        if ("error" in m) reject(new Error(`load worker: ${m.error}`));
        else resolve(m.result);
      });
      worker.postMessage({ id, task });
    });
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry);
    worker.on("message", (m: Message<R>) => this.handlers.get(m.id)?.(m));
    worker.on("error", (e) => {
      for (const h of [...this.handlers.values()]) h({ id: -1, error: String(e) });
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
