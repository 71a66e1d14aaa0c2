/**
 * A probe's window read per operation: what one operation cost the server thread, the whole
 * process, and how busy the rest of the machine was meanwhile (the same figures in every bench).
 */
import type { ProbeResult } from "./probe.js";

export interface PerOpCosts {
  /** Server (main) thread event-loop busy time per op, µs; includes the client when it runs there. */
  readonly mainUsPerOp: number;
  /** Server (main) thread CPU per op, µs: unlike mainUsPerOp it does not grow when other processes take the core. */
  readonly mainCpuUsPerOp?: number;
  /** Whole-process CPU per op (server + client threads), µs. */
  readonly cpuUsPerOp: number;
  /** Average cores used by other processes during the window. */
  readonly foreignCores?: number;
}

/** Empty when nothing was probed or nothing completed: there is no per-op figure then. */
export function perOp(p: ProbeResult | undefined, ops: number): Partial<PerOpCosts> {
  if (!p || ops === 0) return {};
  return {
    mainUsPerOp: (p.mainActiveMs * 1000) / ops,
    mainCpuUsPerOp: p.mainCpuMs !== undefined ? (p.mainCpuMs * 1000) / ops : undefined,
    cpuUsPerOp: (p.processCpuMs * 1000) / ops,
    foreignCores: p.foreignCores,
  };
}
