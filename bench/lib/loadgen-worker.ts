/** Worker-thread entry of the load generator. */
import { runTask } from "./loadgen.js";
import { serveTasks } from "./task-worker.js";

serveTasks(runTask);
