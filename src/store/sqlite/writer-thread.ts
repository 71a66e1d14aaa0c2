/**
 * The SQLite writer thread: the ledger's writes (ledger-writer.ts) on a connection of its own,
 * so that the statements and the commit of every batch, a fifth to a quarter of the event loop
 * under a load of transfers, run beside it rather than on it. The store posts a batch per turn
 * of its event loop without waiting; the batches that arrived while one was being written are
 * written next, together, in one transaction (group commit). A batch is answered once it is on
 * disk: commits are `synchronous=NORMAL` and the WAL is fsynced on the thread pool (wal-sync.ts)
 * while the next batch is written, so batches committed during one fsync share the next.
 */
import Database from "better-sqlite3";
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { LedgerWriter } from "./ledger-writer.js";
import { WalSync } from "./wal-sync.js";
import type { ToWriter, FromWriter } from "./writer-messages.js";

const port = parentPort!;
/** `answers`: the port the store takes its answers from (batch-writer.ts), in order, `closed` last. */
const { file, autocheckpointPages, answers } = workerData as { file: string; autocheckpointPages: number; answers: MessagePort };
const db = new Database(file);
db.defaultSafeIntegers(true);
db.pragma("busy_timeout = 5000");
db.pragma("synchronous = NORMAL");
db.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
const writer = new LedgerWriter(db);
const walSync = new WalSync(`${file}-wal`);

const post = (m: FromWriter) => answers.postMessage(m);
/** A commit or sync failed: what reached the disk is unknown, and nothing more is written. */
let stopped: unknown;

/** `first` and every write already waiting behind it, in one transaction. */
function writeAll(first: Extract<ToWriter, { kind: "write" }>): void {
  const batches = [first];
  const others: ToWriter[] = [];
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
    const m = next.message as ToWriter;
    if (m.kind === "write") batches.push(m);
    else others.push(m);
  }
  const ids = batches.map((b) => b.id);
  const failed = (e: unknown, fatal: boolean) => {
    if (fatal) stopped ??= e;
    post({ kind: "failed", ids, error: e instanceof Error ? e.message : String(e), fatal });
  };
  stopped ??= walSync.failed;
  if (stopped) {
    // Batches the store handed over before it heard of the failure: none is written.
    failed(stopped, true);
  } else {
    try {
      const outcomes = writer.write(batches.flatMap((b) => b.batch));
      let at = 0;
      const parts = batches.map((b) => ({ id: b.id, outcomes: outcomes.slice(at, (at += b.batch.length)) }));
      walSync.afterCommit((error) => (error ? failed(error, true) : post({ kind: "written", parts })));
    } catch (e) {
      // Under BEGIN IMMEDIATE, SQLITE_BUSY can only be the write lock not had within the busy
      // timeout: nothing was written, and the next batch may have it.
      failed(e, (e as { code?: unknown }).code !== "SQLITE_BUSY");
    }
  }
  for (const m of others) handle(m);
}

function handle(m: ToWriter): void {
  switch (m.kind) {
    case "write":
      return writeAll(m);
    case "autocheckpoint":
      db.pragma(`wal_autocheckpoint = ${m.pages}`);
      return;
    case "close":
      void walSync.close().then(() => {
        db.close();
        post({ kind: "closed" });
      });
      return;
  }
}

port.on("message", handle);
port.postMessage({ kind: "ready" } satisfies FromWriter);
