/** Worker-thread entry of the CC bench. */
import { serveTasks } from "../lib/task-worker.js";
import { runCcTask } from "./cc-load.js";

serveTasks(runCcTask);
