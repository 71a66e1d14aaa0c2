/** Worker-thread entry of the wallet bench: runs tasks one at a time, relaying window marks and results. */
import { parentPort } from "node:worker_threads";
import { runWalletTask, type WalletTask } from "./wallet-load.js";

let queue: Promise<void> = Promise.resolve();
parentPort!.on("message", ({ id, task }: { id: number; task: WalletTask }) => {
  queue = queue.then(async () => {
    try {
      const result = await runWalletTask(task, (mark) => parentPort!.postMessage({ id, mark }));
      parentPort!.postMessage({ id, result });
    } catch (e) {
      parentPort!.postMessage({ id, error: String((e as Error)?.stack ?? e) });
    }
  });
});
