import { setMaxListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATCH_UP_PAGES_PER_TURN, catchUpTurn } from "../../src/ledger/catch-up-turns.js";
import { tail } from "../../src/ledger/streams.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { rejection } from "../store/conformance.js";

const PAGE = 250;
const N = 2_000;

/** One signal for the many streams of a test (each call has its own in the node): no leak warning for it. */
function sharedSignal(): AbortSignal {
  const signal = new AbortController().signal;
  setMaxListeners(100, signal);
  return signal;
}

describe("streams catching up", () => {
  const store = new SqliteStore({ file: ":memory:" });
  beforeAll(async () => {
    await Promise.all(Array.from({ length: N }, () => store.commit(rejection())));
  });
  afterAll(() => store.close());

  const read = (signal: AbortSignal, following = false) => tail(store, (b, e, l) => store.completions(b, e, l), { beginExclusive: 0n, endInclusive: BigInt(N), signal, following });

  /** Runs `streams` tails over the whole ledger, counting the rows read between turns of the event loop. */
  async function catchUp(streams: number): Promise<{ perTurn: number[]; rows: number[] }> {
    const signal = sharedSignal();
    let total = 0;
    let seen = 0;
    const perTurn: number[] = [];
    let done = false;
    const sample = () => {
      perTurn.push(total - seen);
      seen = total;
      if (!done) setImmediate(sample);
    };
    setImmediate(sample);
    const rows = await Promise.all(
      Array.from({ length: streams }, async () => {
        let n = 0;
        for await (const row of read(signal)) {
          expect(row.offset).toBe(BigInt(++n));
          total++;
        }
        return n;
      }),
    );
    done = true;
    return { perTurn, rows };
  }

  it("one stream lets the event loop in between pages", async () => {
    const { perTurn, rows } = await catchUp(1);
    expect(rows).toEqual([N]);
    // Before, all 2,000 rows were read before any other work got a turn.
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(PAGE);
  });

  it("many streams together read a bounded number of pages per turn, and every row once", async () => {
    const { perTurn, rows } = await catchUp(20);
    expect(rows).toEqual(Array(20).fill(N));
    // Before, each of the 20 read a page (5,000 rows) in the same turn.
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(CATCH_UP_PAGES_PER_TURN * PAGE);
    expect(perTurn.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20 * N);
  });

  it("a stream that follows the ledger end reads its first page without queueing behind catch-ups", async () => {
    const signal = sharedSignal();
    const queued = Array.from({ length: 20 }, () => catchUpTurn(signal));
    let rowsBeforeNextTurn = -1;
    let rows = 0;
    setImmediate(() => (rowsBeforeNextTurn = rows));
    const follower = (async () => {
      for await (const _ of read(signal, true)) rows++;
    })();
    await Promise.all([...queued, follower]);
    expect(rows).toBe(N);
    expect(rowsBeforeNextTurn).toBe(PAGE);
  });

  it("a cancelled stream gives up its place in the queue at once", async () => {
    const waiting = new AbortController();
    const order: string[] = [];
    const first = catchUpTurn(waiting.signal).then(() => order.push("cancelled"));
    const others = Array.from({ length: CATCH_UP_PAGES_PER_TURN }, (_, i) => catchUpTurn(new AbortController().signal).then(() => order.push(`other-${i}`)));
    waiting.abort();
    await first;
    expect(order).toEqual(["cancelled"]);
    // The next turn's allowance goes to the others, not to the cancelled stream.
    await new Promise((r) => setImmediate(r));
    await Promise.all(others);
    expect(order).toEqual(["cancelled", ...Array.from({ length: CATCH_UP_PAGES_PER_TURN }, (_, i) => `other-${i}`)]);
  });
});
