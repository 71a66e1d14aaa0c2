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

    it("an offset past the ledger end reads as the ledger end", async () => {
      const store = await fresh();
      const a = contract();
      await store.commit(txCommit({ creates: [a] }));
      expect(ids(await store.activeContracts({ activeAtOffset: 99n }))).toEqual([a.contractId]);
    });
  });
}
