/**
 * The wallet's history index (src/wallet/support/history-index.ts): the offsets of the
 * transactions each party witnesses, equal to a scan of the ledger after a mix of commits (some
 * while a party loads, a bound small enough to drop parties); and a history page that reads only
 * its party's transactions. A hostile review found every page of a party with little history
 * reading and decoding the whole ledger (0.6 s each on a 0.4 GB store).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerStore } from "../../../src/ledger/store-port.js";
import { HistoryIndex } from "../../../src/wallet/support/history-index.js";
import { listTransactions } from "../../../src/wallet/use-cases/list-transactions.js";
import { startCc, type CcFixture } from "../../support/cc-fixture.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

const store = () => fx.t.server.store;

/** Offsets of every transaction with a node `party` witnesses, by a scan of the whole ledger. */
async function scanned(party: string): Promise<number[]> {
  const all = await store().transactions(0n, await store().ledgerEnd(), 100_000);
  return all.filter((tx) => tx.nodes.some((n) => n.witnesses.includes(party))).map((tx) => Number(tx.offset));
}

describe("history index", () => {
  it("equals a scan of the ledger, for parties loaded early, late and while commits go on, under a small bound", async () => {
    const [a, b, c] = await Promise.all(["h0", "h1", "h2"].map((h) => fx.party(h)));
    const index = new HistoryIndex(fx.t.server.api.ledger.feed, store());
    const bounded = new HistoryIndex(fx.t.server.api.ledger.feed, store(), 3);
    await index.of(a);
    for (let i = 0; i < 6; i++) {
      const taps: Promise<unknown>[] = [fx.tap(a, "1"), fx.tap(b, "2")];
      // c loads while taps commit: what the feed delivers meanwhile counts once.
      if (i === 2) taps.push(index.of(c).then(() => undefined));
      await Promise.all(taps);
    }
    for (const p of [a, b, c]) {
      expect(await index.of(p)).toEqual(await scanned(p));
      expect(await bounded.of(p)).toEqual(await scanned(p));
    }
  });

  it("serves a history page of a party with little history without reading other parties' transactions", async () => {
    const busy = await fx.party("busy");
    const quiet = await fx.party("quiet");
    await fx.tap(quiet, "5");
    for (let i = 0; i < 30; i++) await fx.tap(busy, "1");
    const deps = fx.t.server.wallet;
    await listTransactions(deps, { party: quiet, pageSize: 10n }); // loads the party
    let reads = 0;
    const counting = new Proxy(store(), {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== "function") return value;
        // Counts the transactions read, whichever call reads them.
        return async (...args: unknown[]) => {
          const result: unknown = await value.apply(target, args);
          if (name === "transactions") reads += (result as unknown[]).length;
          if ((name === "transactionByOffset" || name === "transactionById") && result) reads++;
          return result;
        };
      },
    }) as LedgerStore as typeof deps.store;
    const page = await listTransactions({ ...deps, store: counting }, { party: quiet, pageSize: 10n });
    expect(page.map((i) => i.subtype.choice)).toEqual(["AmuletRules_DevNet_Tap"]);
    // The quiet party's own transactions (its tap, and whatever onboarding it witnessed), not the busy one's 30.
    expect(reads).toBeLessThanOrEqual((await scanned(quiet)).length);
  });
});
