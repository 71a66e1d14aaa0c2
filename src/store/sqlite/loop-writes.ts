/**
 * The event loop's own writes (parties, users, settings, packages) beside the ledger's writer
 * thread. SQLite's busy handler sleeps inside the call, which on the loop would stall every
 * request while the writer holds the lock (up to tens of milliseconds under load); the loop's
 * connection has no busy timeout instead, and a write that finds the file locked is tried again
 * after a pause, in order with the others.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** How long a write keeps trying before its SQLITE_BUSY is the answer. */
const GIVE_UP_MS = 5_000;

export class LoopWrites {
  private last: Promise<unknown> = Promise.resolve();

  /** Runs `write` after the writes queued before it, again while the file is locked. */
  run<T>(write: () => T): Promise<T> {
    // `last` never rejects: each write's failure is its own caller's.
    const next = this.last.then(() => whenUnlocked(write));
    this.last = next.catch(() => undefined);
    return next;
  }
}

async function whenUnlocked<T>(write: () => T): Promise<T> {
  const deadline = performance.now() + GIVE_UP_MS;
  for (let pause = 1; ; pause = Math.min(2 * pause, 16)) {
    try {
      return write();
    } catch (e) {
      if ((e as { code?: unknown }).code !== "SQLITE_BUSY" || performance.now() > deadline) throw e;
    }
    await sleep(pause);
  }
}
