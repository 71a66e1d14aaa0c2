/**
 * Response bodies written together at the end of the event loop's turn instead of one by one as
 * handlers finish. Each write to a client that sleeps wakes it; on a loaded machine that wake-up
 * takes the core from the writer, and the client, woken once per response, spends its own CPU
 * per wake. Written back to back, one turn's responses reach their clients in one burst: with 64
 * closed-loop clients on 2 cores, prepare (answered as each request is read, not in a commit's
 * batch) went from 5,743 to 7,958 answers/s, node CPU from 187 to 139 µs and the client's from
 * 68 to 44 µs per answer. The delay is the rest of the current turn; a response sent from a
 * setImmediate callback (a commit's flush) waits for the next turn's check phase.
 */
import type { ServerResponse } from "node:http";

const queued: { readonly res: ServerResponse; readonly body: string }[] = [];

/** Ends `res` with `body` (headers already set) when the current turn's I/O is done. */
export function endThisTurn(res: ServerResponse, body: string): void {
  if (queued.push({ res, body }) === 1) setImmediate(writeQueued);
}

function writeQueued(): void {
  const batch = queued.splice(0);
  for (const { res, body } of batch) {
    try {
      res.end(body);
    } catch {
      // A connection that broke meanwhile is the client's loss alone; the others still get theirs.
    }
  }
}
