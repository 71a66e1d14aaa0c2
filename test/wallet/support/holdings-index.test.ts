/**
 * The wallet's in-memory holdings index (src/wallet/support/holdings-index.ts) against the ledger's ACS:
 * equal after a seeded random mix of taps, transfers, locks, unlocks and archives (some of them
 * concurrent, parties loaded at random points, a bound small enough to evict); exact when
 * transactions commit while a party is being loaded; current right after a submission returns,
 * also when its feed lags behind the store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choiceOf } from "../../support/choice-of.js";
import type { LedgerStore } from "../../../src/ledger/store-port.js";
import { TransactionFeed } from "../../../src/ledger/transaction-feed.js";
import { Amulet, LockedAmulet, type LockedAmuletPayload, type TransferResult } from "../../../src/templates/splice/index.js";
import { HoldingsIndex } from "../../../src/wallet/support/holdings-index.js";
import { amuletInput, startCc, TICK, type CcFixture } from "../../support/cc-fixture.js";

let fx: CcFixture;
beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx.stop());

const ledger = () => fx.t.server.api.ledger;

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a fresh ACS read says the party holds, in the index's shape. */
async function fromAcs(party: string) {
  const amulets = (await fx.client.active(Amulet, [party])).filter((a) => a.payload.owner === party);
  const locked = (await fx.client.active(LockedAmulet, [party])).filter((l) => l.payload.amulet.owner === party);
  return { amulets: amulets.map((a) => ({ record: a.record, payload: a.payload })), locked: locked.map((l) => ({ record: l.record, payload: l.payload })) };
}

async function expectExact(index: HoldingsIndex, party: string): Promise<void> {
  expect(await index.of(party)).toEqual(await fromAcs(party));
}

const archive = (owner: string, cid: string) => fx.client.exercise([fx.dso, owner], Amulet, cid, choiceOf(Amulet, "Archive"), {});

async function transfer(sender: string, inputs: readonly string[], receiver: string, amount: string): Promise<TransferResult> {
  return fx.transfer([sender, receiver], { sender, inputs: inputs.map(amuletInput), outputs: [{ receiver, amount }] });
}

async function lock(owner: string, holder: string, input: string, amount: string): Promise<void> {
  await fx.transfer([owner, holder], { sender: owner, inputs: [amuletInput(input)], outputs: [{ receiver: owner, amount, lock: { holders: [holder], expiresAt: fx.clock.now() + 10n * TICK, optContext: "test" } }] });
}

async function unlock(owner: string, cid: string, payload: LockedAmuletPayload): Promise<void> {
  await fx.client.exercise([owner, ...payload.lock.holders], LockedAmulet, cid, choiceOf(LockedAmulet, "LockedAmulet_UnlockV2"), {});
}

describe("holdings index", () => {
  it("equals a fresh ACS read after a seeded random mix of taps, transfers, locks, unlocks and archives", async () => {
    const random = prng(20240607);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const parties = await Promise.all(["p0", "p1", "p2", "p3"].map((h) => fx.party(h)));
    // One index loads parties late and at random; one is bounded so that parties are dropped and reloaded.
    const index = new HoldingsIndex(ledger().feed, ledger().store, fx.dso);
    const bounded = new HoldingsIndex(ledger().feed, ledger().store, fx.dso, { maxHoldings: 6 });
    const loaded = new Set<string>();
    const step = async (party: string): Promise<void> => {
      const other = pick(parties.filter((p) => p !== party));
      const { amulets, locked } = await fromAcs(party);
      const roll = random();
      if (amulets.length === 0 || roll < 0.3) await fx.tap(party, (1 + Math.floor(random() * 50)).toString());
      else if (roll < 0.55) {
        const inputs = amulets.slice(0, 1 + Math.floor(random() * Math.min(3, amulets.length))).map((a) => a.record.contractId);
        await transfer(party, inputs, other, "0.5");
      } else if (roll < 0.7) await lock(party, other, pick(amulets).record.contractId, "0.25");
      else if (roll < 0.85 && locked.length > 0) {
        const l = pick(locked);
        await unlock(party, l.record.contractId, l.payload);
      } else await archive(party, pick(amulets).record.contractId);
    };
    for (let round = 0; round < 25; round++) {
      // Two or three parties act at once: their transactions share commit batches.
      const actors = parties.filter(() => random() < 0.6);
      await Promise.all((actors.length ? actors : [parties[0]]).map(step));
      const party = pick(parties);
      if (random() < 0.5 || loaded.has(party)) {
        loaded.add(party);
        await expectExact(index, party);
      }
      await expectExact(bounded, pick(parties));
      expect(bounded.size.parties).toBeGreaterThanOrEqual(1);
    }
    for (const p of parties) {
      await expectExact(index, p);
      await expectExact(bounded, p);
    }
    // Bounded: the party read last, plus others only while the total stays within 6.
    const last = await bounded.of(parties[3]);
    expect(bounded.size.holdings <= 6 || bounded.size.parties === 1).toBe(true);
    expect(bounded.size.holdings).toBeGreaterThanOrEqual(last.amulets.length + last.locked.length);
  });

  it("is exact when transactions commit while a party is being loaded (before and after its snapshot is read)", async () => {
    for (const readFirst of [false, true]) {
      const [owner, other] = [await fx.party("loading"), await fx.party("other")];
      const first = await fx.tap(owner, "10");
      await fx.tap(owner, "20");
      const base = ledger().store;
      let reads = 0;
      // While the snapshot is read: a tap, a transfer in, a transfer out (archives `first`), a lock, an archive.
      const commitMeanwhile = async () => {
        await fx.tap(owner, "30");
        const otherCoin = await fx.tap(other, "5");
        await transfer(other, [otherCoin], owner, "2");
        await transfer(owner, [first], other, "1");
        const mine = (await fromAcs(owner)).amulets;
        await lock(owner, other, mine[mine.length - 1].record.contractId, "3");
        await archive(owner, (await fromAcs(owner)).amulets[0].record.contractId);
      };
      const slow = {
        ledgerEnd: () => base.ledgerEnd(),
        activeContracts: async (query: Parameters<LedgerStore["activeContracts"]>[0]) => {
          reads++;
          if (!readFirst) await commitMeanwhile();
          const rows = await base.activeContracts(query);
          if (readFirst) await commitMeanwhile();
          return rows;
        },
      } as unknown as LedgerStore;
      const index = new HoldingsIndex(ledger().feed, slow, fx.dso);
      const before = ledger().feed.position;
      await expectExact(index, owner);
      expect(ledger().feed.position).toBeGreaterThan(before + 5n); // commits did happen during the load
      expect(reads).toBe(1);
      await fx.tap(owner, "1");
      await expectExact(index, owner); // and it keeps following the feed
    }
  });

  it("concurrent first reads of one party share one load", async () => {
    const owner = await fx.party("shared");
    await fx.tap(owner, "1");
    let reads = 0;
    const base = ledger().store;
    const counting = { ledgerEnd: () => base.ledgerEnd(), activeContracts: (q: Parameters<LedgerStore["activeContracts"]>[0]) => (reads++, base.activeContracts(q)) } as unknown as LedgerStore;
    const index = new HoldingsIndex(ledger().feed, counting, fx.dso);
    const [a, b] = await Promise.all([index.of(owner), index.of(owner)]);
    expect(a).toEqual(b);
    expect(reads).toBe(1);
  });

  it("sees a submission as soon as it returned: the ledger reports to the feed before submit resolves", async () => {
    const owner = await fx.party("ryw");
    const index = new HoldingsIndex(ledger().feed, ledger().store, fx.dso);
    await index.of(owner);
    const delivered: bigint[] = [];
    const unsubscribe = ledger().feed.subscribe((tx) => delivered.push(tx.offset));
    try {
      for (let i = 1; i <= 5; i++) {
        const cid = await fx.tap(owner, String(i));
        const end = await ledger().store.ledgerEnd();
        expect(delivered).toContain(end); // delivered before the caller resumed
        expect((await index.of(owner)).amulets.map((a) => a.record.contractId)).toContain(cid);
      }
    } finally {
      unsubscribe();
    }
  });

  it("catches up with the store when its feed lags behind (offsets not reported to it)", async () => {
    const owner = await fx.party("lagging");
    // A feed the ledger never reports to: it learns of commits only from the store.
    const lagging = await TransactionFeed.open(ledger().store);
    const index = new HoldingsIndex(lagging, ledger().store, fx.dso);
    await expectExact(index, owner);
    const cid = await fx.tap(owner, "7");
    expect(lagging.position).toBeLessThan(await ledger().store.ledgerEnd());
    expect((await index.of(owner)).amulets.map((a) => a.record.contractId)).toEqual([cid]);
    await archive(owner, cid);
    expect((await index.of(owner)).amulets).toEqual([]);
  });
});
