/**
 * The node's Prometheus metrics (prom-client), in one registry per node so that several nodes in
 * one process (tests) keep their numbers apart. Names follow Prometheus conventions with a
 * `ccwallet_` prefix; the automation's mirror Splice's `splice_trigger_*` (latency, completed with
 * an `outcome`), labelled by trigger name. Labels are bounded: routes by template, RPCs by method,
 * never a party or a contract id.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Latency buckets in seconds: sub-millisecond commits up to multi-second catch-ups. */
const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Holdings per party: where merges matter (10) up to the input limit of a transfer (100) and beyond. */
const HOLDINGS = [1, 2, 5, 10, 20, 50, 100, 250, 1000];

export type TriggerOutcome = "success" | "noop" | "stale" | "failure";

/** What the scrape reads at collection time (the node's current state, not events). */
export interface MetricSources {
  readonly ledgerEnd: () => Promise<bigint>;
  readonly openStreams: () => number;
  /** The number of holdings of each wallet party (the operator's included). */
  readonly holdingsPerParty: () => Promise<readonly number[]>;
  /** The participant's traffic in bytes (undefined when metering is off or the network has no rules yet). */
  readonly traffic: () => Promise<{ readonly baseRemainder: bigint; readonly purchased: bigint; readonly extraConsumed: bigint } | undefined>;
}

export interface NodeMetrics {
  readonly registry: Registry;
  http(route: string, method: string, status: number, seconds: number): void;
  rpc(method: string, code: string, seconds: number): void;
  commit(outcome: "committed" | "rejected", seconds: number): void;
  trigger(name: string, outcome: TriggerOutcome, seconds: number): void;
}

export function createNodeMetrics(sources: MetricSources): NodeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "ccwallet_" });
  const httpDuration = new Histogram({ name: "ccwallet_http_request_duration_seconds", help: "JSON API requests by route template, method and status.", labelNames: ["route", "method", "status"], buckets: SECONDS, registers: [registry] });
  const rpcDuration = new Histogram({ name: "ccwallet_rpc_duration_seconds", help: "Service method calls (gRPC, gRPC-Web, Connect and the JSON paths that run them) by method and status code.", labelNames: ["method", "code"], buckets: SECONDS, registers: [registry] });
  const commitDuration = new Histogram({ name: "ccwallet_ledger_commit_duration_seconds", help: "Submission to durable outcome (interpretation, commit, fsync).", labelNames: ["outcome"], buckets: SECONDS, registers: [registry] });
  const triggerLatency = new Histogram({ name: "ccwallet_trigger_latency_seconds", help: "One run of an automation trigger.", labelNames: ["trigger_name"], buckets: SECONDS, registers: [registry] });
  const triggerCompleted = new Counter({ name: "ccwallet_trigger_completed_total", help: "Automation trigger runs by outcome (stale: a retry found its work gone; success: changed the ledger; noop: nothing due; failure: threw).", labelNames: ["trigger_name", "outcome"], registers: [registry] });
  new Gauge({
    name: "ccwallet_ledger_end",
    help: "The ledger end offset.",
    registers: [registry],
    async collect() {
      this.set(Number(await sources.ledgerEnd()));
    },
  });
  new Gauge({
    name: "ccwallet_open_streams",
    help: "Completion, update and active-contract streams open now.",
    registers: [registry],
    collect() {
      this.set(sources.openStreams());
    },
  });
  new Gauge({
    name: "ccwallet_traffic_bytes",
    help: "The participant's traffic (bytes): base_remainder left in the base-rate bucket, purchased in all, extra_consumed beyond the base rate.",
    labelNames: ["kind"],
    registers: [registry],
    async collect() {
      const t = await sources.traffic();
      this.reset();
      if (!t) return;
      this.set({ kind: "base_remainder" }, Number(t.baseRemainder));
      this.set({ kind: "purchased" }, Number(t.purchased));
      this.set({ kind: "extra_consumed" }, Number(t.extraConsumed));
    },
  });
  new Histogram({
    name: "ccwallet_wallet_holdings_per_party",
    help: "Holdings (Amulet contracts) per wallet party, sampled at scrape time.",
    buckets: HOLDINGS,
    registers: [registry],
    // The distribution now, not a history: emptied and refilled on every scrape.
    async collect() {
      this.reset();
      for (const n of await sources.holdingsPerParty()) this.observe(n);
    },
  });
  return {
    registry,
    http: (route, method, status, seconds) => httpDuration.observe({ route, method, status: String(status) }, seconds),
    rpc: (method, code, seconds) => rpcDuration.observe({ method, code }, seconds),
    commit: (outcome, seconds) => commitDuration.observe({ outcome }, seconds),
    trigger: (name, outcome, seconds) => {
      triggerLatency.observe({ trigger_name: name }, seconds);
      triggerCompleted.inc({ trigger_name: name, outcome });
    },
  };
}
