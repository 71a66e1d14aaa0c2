/**
 * Where the store's batches are written: on the writer thread for a file (writer-thread.ts), or
 * in-thread for `:memory:`, whose database no other connection can open. Batches are answered in
 * the order they were handed over.
 */
import type Database from "better-sqlite3";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { LedgerWriter, type WriteOutcome } from "./ledger-writer.js";
import type { FromWriter, ToWriter } from "./writer-messages.js";
import type { WriteRequest } from "./write-request.js";

export interface Written {
  readonly outcomes: readonly WriteOutcome[];
  /**
   * The last offset this batch, or one before it in its group, wrote (0n if none did: conflicts
   * and failures write nothing, and the store keeps the highest end it has seen). Batches written
   * together are answered one by one, each with its own end: an answer announcing the whole
   * group's end would let its listeners read before the later batches' effects are in the caches.
   */
  readonly end: bigint;
}

/** A batch the writer refused without writing any of it (the store may go on). */
export class BatchNotWritten extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BatchNotWritten";
  }
}

export interface BatchWriter {
  /**
   * The batch committed and durable. Rejects with BatchNotWritten when none of it was written,
   * otherwise when the commit or its sync failed, or the writer died (then nothing is known).
   */
  write(batch: readonly WriteRequest[]): Promise<Written>;
  /**
   * Answers the batches whose answers have arrived, without waiting for the event loop to deliver
   * them (see ThreadWriter).
   */
  takeArrived(): void;
  /** SQLite's automatic checkpoint threshold of the writing connection. */
  setAutocheckpoint(pages: number): void;
  /** Why the writer can no longer write (its thread is gone), if it cannot. */
  readonly failure: Error | undefined;
  close(): Promise<void>;
}

export class InThreadWriter implements BatchWriter {
  private readonly writer: LedgerWriter;

  constructor(private readonly db: Database.Database) {
    this.writer = new LedgerWriter(db);
  }

  async write(batch: readonly WriteRequest[]): Promise<Written> {
    return { outcomes: this.writer.write(batch), end: this.writer.end };
  }

  takeArrived(): void {}

  setAutocheckpoint(pages: number): void {
    this.db.pragma(`wal_autocheckpoint = ${pages}`);
  }

  readonly failure = undefined;

  async close(): Promise<void> {}
}

interface Waiting {
  readonly resolve: (w: Written) => void;
  readonly reject: (e: Error) => void;
}

/**
 * The writer thread's answers come on a port of their own, so the store can take them as soon as
 * it is asked to commit again (`takeArrived`). Under load the event loop otherwise delivers an
 * answer only once it has handled every request of its current turn: ~1.9 ms of a send's ~12 ms
 * were spent that way, with the batch durable and the loop busy with the next batch's requests.
 */
export class ThreadWriter implements BatchWriter {
  private readonly worker: Worker;
  private readonly answers: MessagePort;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private gone: Error | undefined;
  private closed: Promise<void> | undefined;

  constructor(file: string, autocheckpointPages: number) {
    const { port1, port2 } = new MessageChannel();
    this.answers = port1;
    this.worker = new Worker(new URL("./writer-thread.mjs", import.meta.url), {
      workerData: { file, autocheckpointPages, answers: port2 },
      transferList: [port2],
    });
    this.answers.on("message", (m: FromWriter) => this.received(m));
    // Idle, neither must keep the process alive; `close` ends them.
    this.refWhileWaiting(false);
    this.worker.on("message", (m: FromWriter) => this.received(m));
    this.worker.on("error", (e: unknown) => this.lost(asError(e)));
    this.worker.on("exit", (code) => this.lost(new Error(`the SQLite writer thread exited (code ${code})`)));
  }

  write(batch: readonly WriteRequest[]): Promise<Written> {
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve, reject });
      if (this.waiting.size === 1) this.refWhileWaiting(true);
      this.post({ kind: "write", id, batch });
    });
  }

  get failure(): Error | undefined {
    return this.closed ? undefined : this.gone;
  }

  takeArrived(): void {
    for (let m = receiveMessageOnPort(this.answers); m; m = receiveMessageOnPort(this.answers)) this.received(m.message as FromWriter);
  }

  setAutocheckpoint(pages: number): void {
    if (!this.gone) this.post({ kind: "autocheckpoint", pages });
  }

  close(): Promise<void> {
    this.closed ??= this.gone
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          this.worker.once("exit", () => resolve());
          this.post({ kind: "close" });
        });
    return this.closed;
  }

  private post(m: ToWriter): void {
    this.worker.postMessage(m);
  }

  private received(m: FromWriter): void {
    if (m.kind === "closed") {
      this.gone = new Error("the SQLite writer is closed");
      // Only now, with its connection closed: terminating a thread inside a better-sqlite3 call
      // aborts the whole process (a fatal error when the call throws into a dying isolate).
      void this.worker.terminate();
      this.answers.close();
      return;
    }
    if (m.kind === "ready") return;
    const answers = m.kind === "written" ? m.parts.map((p) => p.id) : m.ids;
    let end = 0n;
    answers.forEach((id, i) => {
      if (m.kind === "written") end = lastOffset(m.parts[i].outcomes, end);
      const w = this.waiting.get(id);
      this.waiting.delete(id);
      if (!w) return;
      if (m.kind === "written") w.resolve({ outcomes: m.parts[i].outcomes, end });
      else w.reject(m.fatal ? new Error(m.error) : new BatchNotWritten(m.error));
    });
    if (this.waiting.size === 0) this.refWhileWaiting(false);
  }

  private refWhileWaiting(waiting: boolean): void {
    if (waiting) {
      this.worker.ref();
      this.answers.ref();
    } else {
      this.worker.unref();
      this.answers.unref();
    }
  }

  /** The thread is gone: what it was writing may or may not have committed. */
  private lost(e: Error): void {
    this.gone ??= e;
    for (const w of this.waiting.values()) w.reject(this.gone);
    this.waiting.clear();
  }
}

/** The highest offset among the outcomes, or `after` if none has one (conflicts and failures write nothing). */
function lastOffset(outcomes: readonly WriteOutcome[], after: bigint): bigint {
  let end = after;
  for (const o of outcomes) if ((o.kind === "committed" || o.kind === "rejected") && o.offset > end) end = o.offset;
  return end;
}

/** An error from the thread, which may arrive as a plain object (a SqliteError is cloned so). */
function asError(e: unknown): Error {
  if (e instanceof Error) return e;
  const o = e as { message?: unknown; code?: unknown } | null;
  const message = typeof o?.message === "string" ? o.message : String(e);
  return new Error(typeof o?.code === "string" ? `${o.code}: ${message}` : message);
}
