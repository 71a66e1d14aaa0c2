/**
 * Durability beside the writes. With `synchronous=FULL`, SQLite fsyncs the WAL inside COMMIT, and
 * the writer thread could not write the next batch meanwhile: each request waited for the fsyncs
 * of the batches before its own. Ledger batches are instead committed with `synchronous=NORMAL`
 * (the WAL is written, not synced) and this class fdatasyncs the WAL file on libuv's thread pool
 * while the writer goes on; a batch is answered, and the ledger end its readers see moves, only
 * once a sync that began after the batch's COMMIT has finished. What is acknowledged is on disk
 * exactly as with FULL.
 *
 * One sync runs at a time; batches committed while it runs wait for the next one, so under load
 * several batches share an fsync. A failed fsync leaves no way to know what reached the disk:
 * every waiting and later caller gets the error (the store then refuses to commit).
 */
import { closeSync, fdatasync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";

export class WalSync {
  private fd: number | undefined;
  private running = false;
  /** Callers whose writes are committed but not yet covered by a sync that has begun. */
  private waiting: ((error?: Error) => void)[] = [];
  private failure: Error | undefined;
  private idle: (() => void) | undefined;

  constructor(private readonly walFile: string) {}

  /** The error of a sync that failed: nothing committed since is known to be on disk. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** Calls `done` once everything committed before this call is on disk, or with the sync's error. */
  afterCommit(done: (error?: Error) => void): void {
    if (this.failure) return done(this.failure);
    this.waiting.push(done);
    this.next();
  }

  /** Resolves when no sync runs and none is owed; then closes the file. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        if (this.fd !== undefined) closeSync(this.fd);
        this.fd = undefined;
        resolve();
      };
      if (!this.running && this.waiting.length === 0) finish();
      else this.idle = finish;
    });
  }

  private next(): void {
    if (this.running) return;
    if (this.waiting.length === 0) {
      this.idle?.();
      this.idle = undefined;
      return;
    }
    const covered = this.waiting;
    this.waiting = [];
    this.running = true;
    let fd: number;
    try {
      // Opened once a commit has made the file exist; SQLite keeps it (same inode) while open.
      // Writable, because Windows flushes only handles that may write.
      fd = this.fd ??= openWal(this.walFile);
    } catch (e) {
      this.fail(covered, e);
      return;
    }
    fdatasync(fd, (e) => {
      if (e) return this.fail(covered, e);
      this.running = false;
      for (const done of covered) done();
      this.next();
    });
  }

  private fail(covered: readonly ((error?: Error) => void)[], e: unknown): void {
    this.failure = e instanceof Error ? e : new Error(String(e));
    const all = [...covered, ...this.waiting];
    this.waiting = [];
    this.running = false;
    for (const done of all) done(this.failure);
    this.idle?.();
    this.idle = undefined;
  }
}

/**
 * The WAL file, with its directory entry made durable first: SQLite syncs the directory of a new
 * WAL on its first sync of the file, which under NORMAL happens only at a checkpoint, so a batch
 * acknowledged after our fdatasync could otherwise sit in a file the directory does not yet name.
 */
function openWal(file: string): number {
  const fd = openSync(file, "r+");
  let dir: number | undefined;
  try {
    dir = openSync(dirname(file), "r");
    fsyncSync(dir);
  } catch (e) {
    // Windows cannot open a directory (and journals its entries itself); elsewhere this is fatal.
    if (process.platform !== "win32") {
      closeSync(fd);
      throw e;
    }
  } finally {
    if (dir !== undefined) closeSync(dir);
  }
  return fd;
}

