/**
 * Load tasks of the wallet bench, run in a worker thread (own event loop and core: a separate
 * client, as in production, so the server's event loop is measured alone). All timing is taken
 * inside the worker. HTTP/1.1 keep-alive, one socket per concurrent client.
 */
import { performance } from "node:perf_hooks";
import { runCcTask, type CcTask } from "../cc/cc-load.js";
import { httpClient } from "../lib/clients.js";
import { closedLoops, type LoopsResult } from "../lib/closed-loops.js";
import { TaskWorker, type Mark } from "../lib/task-worker.js";

export interface Actor {
  readonly party: string;
  readonly token: string;
}

export type WalletTask =
  | {
      /** Closed loops: sender creates an offer, receiver accepts, sender polls status until completed. */
      readonly kind: "offers";
      readonly httpUrl: string;
      readonly pairs: readonly { readonly sender: Actor; readonly receiver: Actor }[];
      readonly amount: string;
      readonly pollMs: number;
      readonly warmupMs: number;
      readonly durationMs: number;
      readonly idPrefix: string;
    }
  | {
      /** Closed loops of one request (GET, or POST with a body) by `clients` clients. */
      readonly kind: "request";
      readonly httpUrl: string;
      readonly method: "GET" | "POST";
      readonly path: string;
      readonly body?: string;
      readonly token?: string;
      readonly clients: number;
      readonly warmupMs: number;
      readonly durationMs: number;
    }
  | {
      /** Closed loops of one-step preapproval sends, one sender per client, each with a fresh deduplication id. */
      readonly kind: "sends";
      readonly httpUrl: string;
      readonly senders: readonly Actor[];
      readonly receiver: string;
      readonly amount: string;
      readonly warmupMs: number;
      readonly durationMs: number;
      readonly idPrefix: string;
    }
  | { readonly kind: "cc"; readonly task: CcTask };

export interface WalletResult extends LoopsResult {
  /** offers: p50-able samples of each phase (create, accept, create→completed), ms. */
  readonly phases?: { readonly create: number[]; readonly accept: number[]; readonly polls: number[] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function offers(task: Extract<WalletTask, { kind: "offers" }>, mark: Mark): Promise<WalletResult> {
  const client = httpClient(task.httpUrl, task.pairs.length * 2);
  const phases = { create: [] as number[], accept: [] as number[], polls: [] as number[] };
  let k = 0;
  const ok = (r: { status: number; body: string }, what: string) => {
    if (r.status !== 200) throw new Error(`${what}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    return JSON.parse(r.body);
  };
  try {
    const r = await closedLoops(task.pairs.length, task, mark, async (i, keep) => {
      const { sender, receiver } = task.pairs[i];
      const trackingId = `${task.idPrefix}-${i}-${k++}`;
      const t0 = performance.now();
      const offer = {
        receiver_party_id: receiver.party,
        amount: task.amount,
        description: "bench",
        expires_at: (Date.now() + 3_600_000) * 1000,
        tracking_id: trackingId,
      };
      const created = ok(await client.request("POST", "/v0/wallet/transfer-offers", sender.token, JSON.stringify(offer)), "create");
      const t1 = performance.now();
      ok(await client.request("POST", `/v0/wallet/transfer-offers/${created.offer_contract_id}/accept`, receiver.token, "{}"), "accept");
      const t2 = performance.now();
      let polls = 0;
      for (;;) {
        polls++;
        const st = ok(await client.request("POST", `/v0/wallet/transfer-offers/${encodeURIComponent(trackingId)}/status`, sender.token, "{}"), "status");
        if (st.status === "completed") break;
        if (st.status === "failed") throw new Error(`offer failed: ${JSON.stringify(st)}`);
        await sleep(task.pollMs);
      }
      keep(() => {
        phases.create.push(t1 - t0);
        phases.accept.push(t2 - t1);
        phases.polls.push(polls);
      });
    });
    return { ...r, phases };
  } finally {
    client.close();
  }
}

async function requests(task: Extract<WalletTask, { kind: "request" }>, mark: Mark): Promise<WalletResult> {
  const client = httpClient(task.httpUrl, task.clients);
  try {
    return await closedLoops(task.clients, task, mark, async () => {
      const r = await client.request(task.method, task.path, task.token, task.body);
      if (r.status !== 200) throw new Error(`${task.method} ${task.path}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    });
  } finally {
    client.close();
  }
}

async function sends(task: Extract<WalletTask, { kind: "sends" }>, mark: Mark): Promise<WalletResult> {
  const client = httpClient(task.httpUrl, task.senders.length);
  let k = 0;
  try {
    return await closedLoops(task.senders.length, task, mark, async (i) => {
      const body = JSON.stringify({ receiver_party_id: task.receiver, amount: task.amount, deduplication_id: `${task.idPrefix}-${k++}` });
      const r = await client.request("POST", "/v0/wallet/transfer-preapproval/send", task.senders[i].token, body);
      if (r.status !== 200) throw new Error(`preapproval send: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    });
  } finally {
    client.close();
  }
}

export async function runWalletTask(task: WalletTask, mark: Mark): Promise<WalletResult> {
  switch (task.kind) {
    case "offers":
      return offers(task, mark);
    case "sends":
      return sends(task, mark);
    case "request":
      return requests(task, mark);
    case "cc":
      return runCcTask(task.task, mark);
  }
}

const worker = new TaskWorker<WalletTask, WalletResult>(new URL("./wallet-worker.mjs", import.meta.url));

/** Runs a task in the shared worker thread (started on first use), relaying its window marks. */
export const runInWorker = (task: WalletTask, mark: Mark): Promise<WalletResult> => worker.run(task, mark);
export const stopWalletWorker = (): Promise<void> => worker.stop();
