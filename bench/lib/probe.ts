/**
 * CPU accounting over a measured window, so numbers from a shared, noisy 2-core machine can be
 * read: how busy the server's event loop was (ELU: JS plus synchronous SQLite/fsync work on the
 * main thread), how much CPU this process used (all threads), and how many cores other
 * processes were using meanwhile (from /proc/stat).
 */
import { readFileSync } from "node:fs";
import { performance, type EventLoopUtilization } from "node:perf_hooks";

const USER_HZ = 100;

function machineBusySeconds(): number | undefined {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal
    const busy = cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6] + (cpu[7] ?? 0);
    return busy / USER_HZ;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) of this process's main thread, from /proc (Linux); undefined elsewhere. */
function mainThreadCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / USER_HZ;
  } catch {
    return undefined;
  }
}

export interface ProbeResult {
  readonly wallMs: number;
  /** Main-thread (server) event loop active time, ms. */
  readonly mainActiveMs: number;
  /**
   * CPU time of the main (server) thread, ms: unlike the event loop's active time it does not
   * grow when other processes take the core away, so it compares runs on a busy machine.
   */
  readonly mainCpuMs?: number;
  /** CPU time of this process, all threads, ms. */
  readonly processCpuMs: number;
  /** Average cores used by other processes during the window (undefined if unknown). */
  readonly foreignCores?: number;
}

export class Probe {
  private t0 = 0;
  private elu: EventLoopUtilization | undefined;
  private cpu: NodeJS.CpuUsage | undefined;
  private busy: number | undefined;
  private mainCpu: number | undefined;
  result: ProbeResult | undefined;

  start(): void {
    this.t0 = performance.now();
    this.elu = performance.eventLoopUtilization();
    this.cpu = process.cpuUsage();
    this.busy = machineBusySeconds();
    this.mainCpu = mainThreadCpuSeconds();
  }

  stop(): ProbeResult {
    const wallMs = performance.now() - this.t0;
    const elu = performance.eventLoopUtilization(this.elu);
    const cpu = process.cpuUsage(this.cpu);
    const processCpuMs = (cpu.user + cpu.system) / 1000;
    const busy = machineBusySeconds();
    const foreignCores =
      busy !== undefined && this.busy !== undefined ? Math.max(0, ((busy - this.busy) * 1000 - processCpuMs) / wallMs) : undefined;
    const mainCpu = mainThreadCpuSeconds();
    const mainCpuMs = mainCpu !== undefined && this.mainCpu !== undefined ? (mainCpu - this.mainCpu) * 1000 : undefined;
    this.result = { wallMs, mainActiveMs: elu.active, mainCpuMs, processCpuMs, foreignCores };
    return this.result;
  }

  /** Adapter for the load generator's window marks. */
  readonly mark = (m: "start" | "end"): void => {
    if (m === "start") this.start();
    else this.stop();
  };
}

/**
 * Several windows' accounting as one (the sends bench alternates its windows with the bare
 * commit's): times add up, other processes' cores are weighted by each window's length.
 */
export function combinedProbe(results: readonly (ProbeResult | undefined)[]): ProbeResult | undefined {
  if (results.length === 0 || results.some((r) => r === undefined)) return undefined;
  const rs = results as readonly ProbeResult[];
  const sum = (f: (r: ProbeResult) => number) => rs.reduce((a, r) => a + f(r), 0);
  const wallMs = sum((r) => r.wallMs);
  const mainCpu = rs.every((r) => r.mainCpuMs !== undefined) ? sum((r) => r.mainCpuMs!) : undefined;
  const foreign = rs.every((r) => r.foreignCores !== undefined) ? sum((r) => r.foreignCores! * r.wallMs) / wallMs : undefined;
  return { wallMs, mainActiveMs: sum((r) => r.mainActiveMs), mainCpuMs: mainCpu, processCpuMs: sum((r) => r.processCpuMs), foreignCores: foreign };
}

