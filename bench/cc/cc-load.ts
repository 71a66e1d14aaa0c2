/**
 * Load tasks of the CC bench, run in a worker thread (own event loop and core: a separate client,
 * as in production) or inline. All timing is taken inside the thread that runs the task.
 */
import { performance } from "node:perf_hooks";
import { closedLoops, type LoopsResult } from "../lib/closed-loops.js";
import { TaskWorker, type Mark } from "../lib/task-worker.js";
import { grpcClients, grpcRequests, grpcTransport, iouJson, jsonClient } from "../lib/clients.js";
import { createdAmulet, createdAmuletJson, mergeTransfer, preapprovedSend, preapprovedSendJson, type CcContext } from "./cc-commands.js";

export type CcTask =
  | {
      readonly kind: "send";
      readonly grpcUrl: string;
      readonly token: string;
      readonly context: CcContext;
      /** One closed loop per sender, each spending the change of its previous send. */
      readonly senders: readonly { readonly party: string; readonly holding: string }[];
      readonly amount: string;
      readonly warmupMs: number;
      readonly durationMs: number;
      readonly idPrefix: string;
      /** Through the JSON Ledger API (HTTP/1.1, one socket per sender) instead of gRPC. */
      readonly httpUrl?: string;
    }
  | {
      readonly kind: "iou";
      readonly grpcUrl: string;
      readonly token: string;
      readonly parties: readonly string[];
      readonly warmupMs: number;
      readonly durationMs: number;
      readonly idPrefix: string;
      /** Through the JSON Ledger API instead of gRPC. */
      readonly httpUrl?: string;
    }
  | { readonly kind: "merge"; readonly grpcUrl: string; readonly token: string; readonly context: CcContext; readonly sender: string; readonly batches: readonly (readonly string[])[]; readonly idPrefix: string };

export interface CcResult extends LoopsResult {
  /** send: each sender's holding after the run (input of the next run). */
  readonly holdings?: string[];
}

export async function runCcTask(task: CcTask, mark: Mark): Promise<CcResult> {
  const clients = grpcClients(grpcTransport(task.grpcUrl, task.token));
  let n = 0;
  const id = () => `${task.idPrefix}-${n++}`;
  switch (task.kind) {
    case "send": {
      const holdings = task.senders.map((s) => s.holding);
      if (task.httpUrl) {
        const json = jsonClient(task.httpUrl, task.token, task.senders.length);
        const r = await closedLoops(task.senders.length, task, mark, async (i) => {
          const res = await json.post("/v2/commands/submit-and-wait-for-transaction", preapprovedSendJson(task.context, task.senders[i].party, holdings[i], task.amount, id()));
          if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 300)}`);
          holdings[i] = createdAmuletJson(res.body);
        });
        json.close();
        return { ...r, holdings };
      }
      const r = await closedLoops(task.senders.length, task, mark, async (i) => {
        const res = await clients.commands.submitAndWaitForTransaction(preapprovedSend(task.context, task.senders[i].party, holdings[i], task.amount, id()));
        holdings[i] = createdAmulet(res);
      });
      return { ...r, holdings };
    }
    case "iou": {
      if (task.httpUrl) {
        const json = jsonClient(task.httpUrl, task.token, task.parties.length);
        const r = await closedLoops(task.parties.length, task, mark, async (i) => {
          const res = await json.post("/v2/commands/submit-and-wait-for-transaction", iouJson(task.parties[i], id()));
          if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 300)}`);
        });
        json.close();
        return r;
      }
      return closedLoops(task.parties.length, task, mark, async (i) => {
        const res = await clients.commands.submitAndWaitForTransaction(grpcRequests.submitAndWaitForTransaction(task.parties[i], id()));
        if (!res.transaction?.updateId) throw new Error("no transaction");
      });
    }
    case "merge": {
      const latencies: number[] = [];
      let errors = 0;
      let firstError: string | undefined;
      const t0 = performance.now();
      mark("start");
      for (const batch of task.batches) {
        const start = performance.now();
        try {
          const res = await clients.commands.submitAndWaitForTransaction(mergeTransfer(task.context, task.sender, batch, id()));
          createdAmulet(res);
          latencies.push(performance.now() - start);
        } catch (e) {
          errors++;
          firstError ??= String((e as Error)?.message ?? e);
        }
      }
      mark("end");
      return { latencies, seconds: (performance.now() - t0) / 1000, errors, firstError };
    }
  }
}

const worker = new TaskWorker<CcTask, CcResult>(new URL("./cc-worker.mjs", import.meta.url));

/** Runs a task in the shared worker thread (started on first use), relaying its window marks. */
export const runInWorker = (task: CcTask, mark: Mark): Promise<CcResult> => worker.run(task, mark);
export const stopCcWorker = (): Promise<void> => worker.stop();
