import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATCH_UP_PAGES_PER_TURN } from "../../src/ledger/catch-up-turns.js";
import { tail } from "../../src/ledger/streams.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { rejection } from "../store/conformance.js";

const PAGE = 250;
const N = 2_000;

describe("streams catching up", () => {
  const store = new SqliteStore({ file: ":memory:" });
  beforeAll(async () => {
    await Promise.all(Array.from({ length: N }, () => store.commit(rejection())));
  });
  afterAll(() => store.close());

  /** Runs `streams` tails over the whole ledger; how many rows they had read when the loop's next turn came. */
  async function catchUp(streams: number): Promise<{ rowsBeforeTheLoopRan: number; rows: number[] }> {
    const signal = new AbortController().signal;
    let total = 0;
    let rowsBeforeTheLoopRan = -1;
    setImmediate(() => (rowsBeforeTheLoopRan = total));
    const rows = await Promise.all(
      Array.from({ length: streams }, async () => {
        let n = 0;
        for await (const row of tail(store, (b, e, l) => store.completions(b, e, l), { beginExclusive: 0n, endInclusive: BigInt(N), signal })) {
          expect(row.offset).toBe(BigInt(++n));
          total++;
        }
        return n;
      }),
    );
    return { rowsBeforeTheLoopRan, rows };
  }

  it("one stream lets the event loop in between pages", async () => {
    const { rowsBeforeTheLoopRan, rows } = await catchUp(1);
    expect(rows).toEqual([N]);
    // Before, all 2,000 rows were read before any other work got a turn.
    expect(rowsBeforeTheLoopRan).toBeLessThanOrEqual(PAGE);
  });

  it("many streams together read a bounded number of pages per turn", async () => {
    const { rowsBeforeTheLoopRan, rows } = await catchUp(20);
    expect(rows).toEqual(Array(20).fill(N));
    // Before, each of the 20 read a page (5,000 rows) before the loop's next turn.
    expect(rowsBeforeTheLoopRan).toBeLessThanOrEqual(CATCH_UP_PAGES_PER_TURN * PAGE);
  });
});
