/** Worker-thread entry of the wallet bench. */
import { serveTasks } from "../lib/task-worker.js";
import { runWalletTask } from "./wallet-load.js";

serveTasks(runWalletTask);
