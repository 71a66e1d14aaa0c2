/**
 * The SQLite writer thread: the ledger's writes (ledger-writer.ts) on a connection of its own,
 * so that the statements and the commit of every batch, a fifth to a quarter of the event loop
 * under a load of transfers, run beside it rather than on it. Commits are `synchronous=FULL`: a
 * batch is on disk when its answer is posted. The store posts a batch per turn of its event
 * loop without waiting; the batches that arrived while one was written and synced are written
 * next, together, in one transaction and one fsync (group commit).
 */
import Database from "better-sqlite3";
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { LedgerWriter } from "./ledger-writer.js";
import type { ToWriter, FromWriter } from "./writer-messages.js";

const port = parentPort!;
const { file, autocheckpointPages } = workerData as { file: string; autocheckpointPages: number };
const db = new Database(file);
db.defaultSafeIntegers(true);
db.pragma("busy_timeout = 5000");
db.pragma("synchronous = FULL");
db.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
const writer = new LedgerWriter(db);

const post = (m: FromWriter) => port.postMessage(m);

/** `first` and every write already waiting behind it, in one transaction. */
function writeAll(first: Extract<ToWriter, { kind: "write" }>): void {
  const batches = [first];
  const others: ToWriter[] = [];
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
    const m = next.message as ToWriter;
    if (m.kind === "write") batches.push(m);
    else others.push(m);
  }
  try {
    const outcomes = writer.write(batches.flatMap((b) => b.batch));
    let at = 0;
    const parts = batches.map((b) => ({ id: b.id, outcomes: outcomes.slice(at, (at += b.batch.length)) }));
    post({ kind: "written", parts, end: writer.end });
  } catch (e) {
    post({ kind: "failed", ids: batches.map((b) => b.id), error: e instanceof Error ? e.message : String(e) });
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
      db.close();
      post({ kind: "closed" });
      return;
  }
}

port.on("message", handle);
post({ kind: "ready", end: writer.end });
