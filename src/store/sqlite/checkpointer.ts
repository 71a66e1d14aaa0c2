/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the commit that
 * crosses the WAL threshold: it copies pages into the database file and fsyncs it on the main
 * thread, stalling every request for milliseconds (the p99 spikes of the bench). Instead the main
 * connection checkpoints automatically only as a safety net (a large threshold), and a worker
 * thread with its own connection runs `PRAGMA wal_checkpoint(PASSIVE)` right after commits, at
 * most every `intervalMs`. PASSIVE never blocks the writer. Commits stay durable: each is fsynced
 * to the WAL (`synchronous=FULL`) before it is acknowledged; a checkpoint only moves
 * already-durable pages into the main file.
 *
 * SQLite rewinds the WAL (the next writer starts again at its beginning) only when a write begins
 * while every committed frame has been checkpointed. Under a steady stream of commits the
 * worker's checkpoints nearly always overlap one, so the WAL would only grow (30 MB a minute at
 * 500 commits/s); once it passes REWIND_FRAMES, the store holds its next write until the worker
 * has checkpointed with no commit in between (`rewindBefore`): only the frames since the worker's
 * last pass are left to copy, and the held write rewinds the WAL. The event loop goes on serving
 * meanwhile (it used to run that checkpoint itself: 4 % of its time under a load of transfers).
 *
 * On Linux the worker lowers its own thread's priority (CHECKPOINTER_NICE). A checkpoint only
 * copies pages that are durable already, so it can wait for a free core; under sends it takes
 * 40–80 µs of CPU per transfer, and on a machine whose cores are all busy it used to take them
 * from the event loop and the writer, which every request waits for.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export const CHECKPOINT_INTERVAL_MS = 50;

/** Pages after which the main connection checkpoints by itself (SQLite's default is 1,000). */
export const SAFETY_NET_PAGES = 20_000;

/** WAL frames (pages) after which the main connection completes a checkpoint so the WAL rewinds. */
export const REWIND_FRAMES = 4096;

/**
 * The checkpoint thread's nice value on Linux (0 is the default, 19 the lowest priority). Linux
 * gives each thread a priority of its own, so this leaves the other threads as they are. Elsewhere
 * `setPriority` would change the whole process, so nothing is changed there.
 */
export const CHECKPOINTER_NICE = 10;

// Plain JS run by `new Worker(..., { eval: true })`: no loader (tsx, vitest) is needed in the
// worker, and better-sqlite3 is loaded from the path the main thread resolved.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
if (workerData.nice) {
  try {
    require("node:os").setPriority(0, workerData.nice);
  } catch {
    // Not allowed here: the checkpoints just compete on equal terms.
  }
}
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 1000");
// A checkpoint syncs the WAL before copying and the database file before the WAL may be rewound.
db.pragma("synchronous = FULL");
const checkpoint = () => {
  try {
    const [r] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
};
parentPort.on("message", (m) => {
  if (m === "checkpoint") return checkpoint();
  checkpoint();
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

interface WorkerReport {
  readonly log?: number;
  readonly checkpointed?: number;
  readonly error?: string;
  readonly stopped?: boolean;
}

export class WalCheckpointer {
  private readonly worker: Worker;
  private stopped: Promise<void> | undefined;
  private busy = false;
  private lastStart = 0;
  private last: WorkerReport = {};

  /** `onExit` runs if the worker dies before `stop` (the store then checkpoints by itself again). */
  constructor(
    file: string,
    onExit: () => void,
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, nice: process.platform === "linux" ? CHECKPOINTER_NICE : 0 } });
    // Never keeps the process alive; `stop` ends it on close.
    this.worker.unref();
    this.worker.on("message", (m: WorkerReport) => {
      this.busy = false;
      // After the checkpoint of a rewind the held write goes first; the WAL it rewinds is fresh.
      this.last = this.held ? {} : m;
      this.resume();
    });
    this.worker.on("error", (e) => {
      this.last = { error: String(e) };
      this.resume();
    });
    this.worker.on("exit", () => {
      this.exited = true;
      this.resume();
      if (!this.stopped) onExit();
    });
  }

  /** The worker is gone (stopped or died): nothing more is asked of it. */
  private exited = false;

  /** The held write, if any: runs once the worker has answered (or can no longer). */
  private held: (() => void) | undefined;

  private resume(): void {
    const held = this.held;
    this.held = undefined;
    held?.();
  }

  /** Called after each commit: starts a checkpoint unless one runs or one started recently. */
  committed(): void {
    if (this.busy || this.stopped || this.exited) return;
    const now = performance.now();
    if (now - this.lastStart < this.intervalMs) {
      this.later ??= setTimeout(() => {
        this.later = undefined;
        this.committed();
      }, this.intervalMs).unref();
      return;
    }
    this.busy = true;
    this.lastStart = now;
    this.worker.postMessage("checkpoint");
  }
  private later: NodeJS.Timeout | undefined;

  /** Whether the WAL has grown past REWIND_FRAMES and a rewind could start now. */
  wantsRewind(): boolean {
    return !this.busy && !this.stopped && !this.exited && !this.held && (this.last.log ?? 0) >= REWIND_FRAMES;
  }

  /**
   * Called by the store before a write: when the WAL has grown past REWIND_FRAMES, has the worker
   * checkpoint now and answers true; the store then holds its writes until `write` is called (once
   * the checkpoint is done, or the worker is gone), and that write rewinds the WAL. False: write now.
   */
  rewindBefore(write: () => void): boolean {
    if (!this.wantsRewind()) return false;
    this.held = write;
    this.busy = true;
    this.lastStart = performance.now();
    this.last = {};
    this.worker.postMessage("checkpoint");
    return true;
  }


  /** Runs a last checkpoint and ends the worker. */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      if (this.later) clearTimeout(this.later);
      this.resume();
      // A worker that died already has no exit left to wait for.
      if (this.exited) return resolve();
      const done = () => resolve();
      this.worker.once("exit", done);
      this.worker.on("message", (m: WorkerReport) => {
        if (m.stopped) void this.worker.terminate().then(done, done);
      });
      this.worker.postMessage("stop");
    });
    return this.stopped;
  }
}
