/**
 * The operator's HTTP endpoints on the JSON API port: `GET /livez` and `/readyz` (also under
 * Splice's `/api/validator` prefix, where its Helm probes look) and `GET /metrics` in Prometheus'
 * text format. No token: probes and scrapers carry none, and nothing here names a party.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { checkReadiness, type ReadinessChecks } from "./health.js";
import type { NodeMetrics } from "./metrics.js";

export const OPS_PATHS = ["/livez", "/readyz", "/api/validator/livez", "/api/validator/readyz", "/metrics"] as const;

export interface OpsEndpoints {
  /** Answers the request if it is one of OPS_PATHS; false leaves it to the API. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

export function opsEndpoints(options: { readonly metrics: NodeMetrics; readonly readiness: ReadinessChecks }): OpsEndpoints {
  return {
    handle(req, res) {
      const path = (req.url ?? "").split("?", 1)[0];
      if (!(OPS_PATHS as readonly string[]).includes(path)) return false;
      if (req.method !== "GET" && req.method !== "HEAD") {
        text(res, 405, "method not allowed\n", { allow: "GET, HEAD" });
        return true;
      }
      if (path.endsWith("/livez")) text(res, 200, "ok\n");
      else if (path.endsWith("/readyz")) void ready(res, options.readiness);
      else void scrape(res, options.metrics);
      return true;
    },
  };
}

async function ready(res: ServerResponse, checks: ReadinessChecks): Promise<void> {
  const r = await checkReadiness(checks);
  text(res, r.ready ? 200 : 503, r.ready ? "ok\n" : `not ready:\n${r.problems.join("\n")}\n`);
}

async function scrape(res: ServerResponse, metrics: NodeMetrics): Promise<void> {
  try {
    text(res, 200, await metrics.registry.metrics(), { "content-type": metrics.registry.contentType });
  } catch (e) {
    text(res, 500, `metrics collection failed: ${e instanceof Error ? e.message : String(e)}\n`);
  }
}

function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(res.req.method === "HEAD" ? undefined : body);
}
