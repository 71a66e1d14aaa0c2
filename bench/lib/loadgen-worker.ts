/** Worker-thread entry: runs load-generator tasks one at a time, reporting window marks and results. */
import { parentPort } from "node:worker_threads";
import { runTask, type Task } from "./loadgen.js";

let queue: Promise<void> = Promise.resolve();
parentPort!.on("message", ({ id, task }: { id: number; task: Task }) => {
  queue = queue.then(async () => {
    try {
      const result = await runTask(task, (mark) => parentPort!.postMessage({ id, mark }));
      parentPort!.postMessage({ id, result });
    } catch (e) {
      parentPort!.postMessage({ id, error: String((e as Error)?.stack ?? e) });
    }
  });
});
