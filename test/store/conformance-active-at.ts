/**
 * Conformance of `activeContracts({ activeAtOffset })`, the ACS snapshot at a past offset: created
 * at or before it and not archived at or before it. Run against every adapter next to the main
 * suite (conformance.ts), with the same builders.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "../../src/ledger/store-port.js";
import { ALICE, BOB, CAROL, contract, ids, IOU, KEYED, rejection, stored, txCommit } from "./conformance.js";

export function describeActiveAtConformance(name: string, open: () => Promise<Store>): void {
  describe(`Store conformance: ${name}: active contracts at an offset`, () => {
    const opened: Store[] = [];
    const fresh = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it("answers each offset of a history with archives, rejections and several stakeholders", async () => {
      const store = await fresh();
      const a = contract({ signatories: [ALICE], nodeId: 1 });
      const b = contract({ signatories: [BOB], observers: [ALICE], nodeId: 0, template: KEYED });
      const c = contract({ signatories: [ALICE] });
      const d = contract({ signatories: [BOB] });
      const e = contract({ signatories: [CAROL], observers: [BOB], nodeId: 1 });
      expect((await store.commit(txCommit({ creates: [a, b] }))).offset).toBe(1n);
      expect((await store.commit(txCommit({ archives: [a.contractId], creates: [c] }))).offset).toBe(2n);
      expect((await store.commit(rejection())).offset).toBe(3n);
      expect((await store.commit(txCommit({ archives: [b.contractId], creates: [d, e] }))).offset).toBe(4n);
      expect((await store.commit(txCommit({ archives: [c.contractId] }))).offset).toBe(5n);
      // Rejected (c is gone): changes nothing at any offset.
      expect((await store.commit(txCommit({ archives: [c.contractId, d.contractId] }))).kind).toBe("rejected");

      const at = async (offset: bigint, query: { parties?: string[]; templateIds?: string[] } = {}) =>
        ids(await store.activeContracts({ ...query, activeAtOffset: offset }));
      expect(await at(0n)).toEqual([]);
      expect(await at(1n)).toEqual([b.contractId, a.contractId]);
      expect(await at(2n)).toEqual([b.contractId, c.contractId]);
      expect(await at(3n)).toEqual([b.contractId, c.contractId]);
      expect(await at(4n)).toEqual([c.contractId, d.contractId, e.contractId]);
      expect(await at(5n)).toEqual([d.contractId, e.contractId]);
      expect(await at(6n)).toEqual([d.contractId, e.contractId]);
      expect(await at(6n)).toEqual(ids(await store.activeContracts({})));

      expect(await at(1n, { parties: [ALICE] })).toEqual([b.contractId, a.contractId]);
      expect(await at(2n, { parties: [ALICE] })).toEqual([b.contractId, c.contractId]);
      expect(await at(4n, { parties: [ALICE] })).toEqual([c.contractId]);
      expect(await at(5n, { parties: [ALICE] })).toEqual([]);
      expect(await at(1n, { parties: [BOB] })).toEqual([b.contractId]);
      expect(await at(4n, { parties: [BOB] })).toEqual([d.contractId, e.contractId]);
      // A contract seen by two of the parties asked for comes once, in creation order.
      expect(await at(4n, { parties: [CAROL, ALICE, BOB] })).toEqual([c.contractId, d.contractId, e.contractId]);
      expect(await at(2n, { parties: [BOB, ALICE] })).toEqual([b.contractId, c.contractId]);

      expect(await at(1n, { templateIds: [KEYED] })).toEqual([b.contractId]);
      expect(await at(4n, { templateIds: [KEYED] })).toEqual([]);
      expect(await at(2n, { templateIds: [IOU] })).toEqual([c.contractId]);
      expect(await at(2n, { templateIds: [IOU, KEYED] })).toEqual([b.contractId, c.contractId]);
      expect(await at(1n, { parties: [ALICE], templateIds: [IOU] })).toEqual([a.contractId]);
      expect(await at(4n, { parties: ["nobody::1220"] })).toEqual([]);

      // Whole records, with the offset they were created at.
      expect(await store.activeContracts({ activeAtOffset: 2n, parties: [ALICE], templateIds: [IOU] })).toEqual([
        stored({ ...c, createUpdateId: expect.any(String) as unknown as string }, 2n),
      ]);
    });

    it("pages of a snapshot add up to it, for any page size, party set and offset, resuming after any position", async () => {
      const store = await fresh();
      // A seeded history: creates with one to three stakeholders and several nodes per transaction,
      // archives of earlier contracts, so that past snapshots hold contracts archived since.
      let seed = 7;
      const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      const parties = [ALICE, BOB, CAROL];
      const live: string[] = [];
      for (let t = 0; t < 40; t++) {
        const creates = Array.from({ length: 1 + next(3) }, (_, nodeId) => {
          const signatory = parties[next(3)]!;
          const observers = next(2) === 0 ? [] : [parties[next(3)]!].filter((p) => p !== signatory);
          return contract({ signatories: [signatory], observers, nodeId: 2 * nodeId + next(2), template: next(4) === 0 ? KEYED : IOU });
        });
        const archives = live.length > 3 && next(2) === 0 ? live.splice(next(live.length), 1) : [];
        expect((await store.commit(txCommit({ archives, creates }))).kind).toBe("committed");
        live.push(...creates.map((c) => c.contractId));
      }
      const end = await store.ledgerEnd();
      // With maxBytes a short page may have more after it: such a reader reads on to an empty page.
      const pagesOf = async (query: { parties?: string[]; activeAtOffset: bigint }, limit: number, maxBytes?: number) => {
        const all: string[] = [];
        let after: { offset: bigint; nodeId: number } | undefined;
        for (let pages = 0; pages < 400; pages++) {
          const page = await store.activeContractsPage({ ...query, limit, ...(after ? { after } : {}), ...(maxBytes !== undefined ? { maxBytes } : {}) });
          expect(page.length).toBeLessThanOrEqual(maxBytes === 1 ? 1 : limit);
          all.push(...ids(page));
          if (maxBytes === undefined ? page.length < limit : page.length === 0) return all;
          const last = page[page.length - 1]!;
          after = { offset: last.createdOffset, nodeId: last.nodeId };
        }
        throw new Error("no end of pages");
      };
      for (const offset of [1n, 5n, 17n, 29n, end]) {
        for (const who of [undefined, [ALICE], [BOB, ALICE], [CAROL, BOB, ALICE], ["nobody::1220"]]) {
          const query = { activeAtOffset: offset, ...(who ? { parties: who } : {}) };
          const snapshot = ids(await store.activeContracts(query));
          for (const limit of [1, 2, 5, 1000]) expect(await pagesOf(query, limit), `${offset} ${who?.join(",")} ${limit}`).toEqual(snapshot);
          // A page ends after the contract that reaches maxBytes: one contract for a byte, the limit's for plenty.
          expect(await pagesOf(query, 1000, 1), `${offset} ${who?.join(",")} by size`).toEqual(snapshot);
          expect(await pagesOf(query, 3, 1e9)).toEqual(snapshot);
        }
      }
      expect(await store.activeContractsPage({ activeAtOffset: 0n, limit: 10 })).toEqual([]);
      // Whole records, as activeContracts gives them.
      const first = (await store.activeContracts({ activeAtOffset: end, parties: [ALICE] }))[0];
      expect((await store.activeContractsPage({ activeAtOffset: end, parties: [ALICE], limit: 1 }))[0]).toEqual(first);
    });

    it("a party's page at a past offset skips the archived contracts of others, however many", async () => {
      const store = await fresh();
      const mine = contract({ signatories: [ALICE] });
      const theirs = Array.from({ length: 600 }, (_, i) => contract({ signatories: [BOB], nodeId: i }));
      await store.commit(txCommit({ creates: theirs.slice(0, 300) }));
      await store.commit(txCommit({ creates: theirs.slice(300) }));
      const late = contract({ signatories: [ALICE], observers: [BOB], nodeId: 1 });
      await store.commit(txCommit({ creates: [mine, late] }));
      // Offset 3's snapshot; then everything archived: Alice's contracts come from the archived rows.
      await store.commit(txCommit({ archives: [...theirs.map((c) => c.contractId), mine.contractId, late.contractId] }));
      expect(ids(await store.activeContractsPage({ activeAtOffset: 3n, parties: [ALICE], limit: 10 }))).toEqual([mine.contractId, late.contractId]);
      expect(ids(await store.activeContractsPage({ activeAtOffset: 3n, parties: [ALICE], limit: 1 }))).toEqual([mine.contractId]);
      const second = await store.activeContractsPage({ activeAtOffset: 3n, parties: [ALICE], limit: 1, after: { offset: 3n, nodeId: mine.nodeId } });
      expect(ids(second)).toEqual([late.contractId]);
      expect(ids(await store.activeContractsPage({ activeAtOffset: 3n, parties: [BOB], limit: 1000 }))).toEqual([...theirs, late].map((c) => c.contractId));
      expect(await store.activeContractsPage({ activeAtOffset: 4n, parties: [ALICE], limit: 10 })).toEqual([]);
    });

    it("everyone's pages over many templates add up to the snapshot, at the end and where most was archived since", async () => {
      const store = await fresh();
      // 24 templates interleaved in creation order, node ids out of order within a transaction.
      const templates = Array.from({ length: 24 }, (_, i) => `pkg${i % 5}:M${i}:T`);
      const made = [];
      for (let t = 0; t < 12; t++) {
        const creates = Array.from({ length: 10 }, (_, n) => contract({ signatories: [[ALICE, BOB, CAROL][n % 3]!], nodeId: (7 * n) % 10, template: templates[(t * 10 + n) % 24] }));
        expect((await store.commit(txCommit({ creates }))).kind).toBe("committed");
        made.push(...creates);
      }
      // After offset 3, all but a few are archived: every contract of some templates goes.
      const kept = new Set(made.filter((_, i) => i % 9 === 0).map((c) => c.contractId));
      await store.commit(txCommit({ archives: made.filter((c) => !kept.has(c.contractId)).map((c) => c.contractId) }));
      const end = await store.ledgerEnd();
      for (const at of [end, 3n, 12n]) {
        const snapshot = ids(await store.activeContracts({ activeAtOffset: at }));
        for (const limit of [1, 4, 25, 1000]) {
          const all: string[] = [];
          for (let after: { offset: bigint; nodeId: number } | undefined, pages = 0; pages < 200; pages++) {
            const page = await store.activeContractsPage({ activeAtOffset: at, limit, ...(after ? { after } : {}) });
            all.push(...ids(page));
            if (page.length < limit) break;
            after = { offset: page[page.length - 1]!.createdOffset, nodeId: page[page.length - 1]!.nodeId };
          }
          expect(all, `${at} ${limit}`).toEqual(snapshot);
        }
      }
    });

    it("an offset past the ledger end reads as the ledger end", async () => {
      const store = await fresh();
      const a = contract();
      await store.commit(txCommit({ creates: [a] }));
      expect(ids(await store.activeContracts({ activeAtOffset: 99n }))).toEqual([a.contractId]);
    });
  });
}
