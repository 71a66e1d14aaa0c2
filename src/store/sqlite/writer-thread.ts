/**
 * The SQLite writer thread: the ledger's writes (ledger-writer.ts) on a connection of its own,
 * so that the statements and the commit of every batch, a fifth to a quarter of the event loop
 * under a load of transfers, run beside it rather than on it. Commits are `synchronous=FULL`: a
 * batch is on disk when its answer is posted. The store posts one batch at a time.
 */
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
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

port.on("message", (m: ToWriter) => {
  switch (m.kind) {
    case "write":
      try {
        const outcomes = writer.write(m.batch);
        post({ kind: "written", id: m.id, outcomes, end: writer.end });
      } catch (e) {
        post({ kind: "failed", id: m.id, error: e instanceof Error ? e.message : String(e) });
      }
      return;
    case "autocheckpoint":
      db.pragma(`wal_autocheckpoint = ${m.pages}`);
      return;
    case "close":
      db.close();
      post({ kind: "closed" });
      return;
  }
});
post({ kind: "ready", end: writer.end });
