/** Worker-thread entry: runs one load-generator task and posts its result. */
import { parentPort, workerData } from "node:worker_threads";
import { runTask, type Task } from "./loadgen.js";

const result = await runTask(workerData as Task);
parentPort!.postMessage(result);
