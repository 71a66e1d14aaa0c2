import { describe, expect, it } from "vitest";
import { tail } from "../../src/ledger/streams.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { rejection } from "../store/conformance.js";

describe("a stream catching up", () => {
  it("lets the event loop in between pages, so a long catch-up does not hold up the node", async () => {
    const store = new SqliteStore({ file: ":memory:" });
    const N = 2_000;
    await Promise.all(Array.from({ length: N }, () => store.commit(rejection())));
    expect(await store.ledgerEnd()).toBe(BigInt(N));

    let rowsBeforeTheLoopRan: number | undefined;
    let rows = 0;
    setImmediate(() => (rowsBeforeTheLoopRan = rows));
    const signal = new AbortController().signal;
    for await (const row of tail(store, (b, e, l) => store.completions(b, e, l), { beginExclusive: 0n, endInclusive: BigInt(N), signal })) {
      expect(row.offset).toBe(BigInt(++rows));
    }
    expect(rows).toBe(N);
    // One page (250 rows) at most before other work got its turn; before, all 2,000 went first.
    expect(rowsBeforeTheLoopRan).toBeLessThanOrEqual(250);
    await store.close();
  });
});
