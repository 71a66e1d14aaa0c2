/**
 * Streams catching up share the event loop: together they read at most CATCH_UP_PAGES_PER_TURN
 * pages per turn, first come first served. The store answers a page at once and decoding it is a
 * few milliseconds of CPU, so a thousand clients resuming from an early offset (say, after a
 * restart) would otherwise spend seconds of every turn on their backlog, and every other request,
 * commits included, would wait behind them. A stream that follows the ledger end reads its few new
 * rows without waiting (see streams.ts).
 */
export const CATCH_UP_PAGES_PER_TURN = 2;

const waiting: (() => void)[] = [];
let scheduled = false;

/**
 * Resolves in a later turn, when this caller's page is among the turn's allowance, or at once
 * when `signal` aborts (a cancelled stream gives its place up rather than spend a slot).
 */
export function catchUpTurn(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      const at = waiting.indexOf(granted);
      if (at >= 0) waiting.splice(at, 1);
      resolve();
    };
    const granted = () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    waiting.push(granted);
    schedule();
  });
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(grant);
}

function grant(): void {
  scheduled = false;
  for (const resolve of waiting.splice(0, CATCH_UP_PAGES_PER_TURN)) resolve();
  if (waiting.length > 0) schedule();
}
