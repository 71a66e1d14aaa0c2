/** Update and contract ids: Canton's shapes, and ordered by creation (so store indexes append). */
import { describe, expect, it } from "vitest";
import { isContractId, isLedgerString, newContractId, newUpdateIds, pinnedUpdateIds } from "../../src/ledger/ids.js";

describe("ids", () => {
  it("update ids are 1220 + 64 hex and strictly increase, even within one microsecond", () => {
    const ids = Array.from({ length: 5000 }, () => newUpdateIds().updateId);
    for (const id of ids) expect(id).toMatch(/^1220[0-9a-f]{64}$/);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(isLedgerString(ids[0])).toBe(true);
  });

  it("contract ids are 00 + 64 hex + suffix, ordered with their update and distinct per node", () => {
    const [u1, u2] = [newUpdateIds().seed, newUpdateIds().seed];
    const c = [newContractId(u1, 0), newContractId(u1, 1), newContractId(u2, 0)];
    for (const id of c) expect(id).toMatch(/^00[0-9a-f]{64}ca11$/);
    expect(c.every(isContractId)).toBe(true);
    expect(new Set(c).size).toBe(3);
    expect(c[2] > c[0] && c[2] > c[1]).toBe(true);
    expect(newContractId(u1, 1)).toBe(c[1]);
  });

  it("seeds contract ids with a value the public update id does not give away, pinned ones included", () => {
    const fresh = newUpdateIds();
    expect(fresh.seed).not.toBe(fresh.updateId);
    expect(fresh.seed.slice(0, 20)).toBe(fresh.updateId.slice(0, 20)); // the shared stamp
    const pinned = pinnedUpdateIds(123_456n, "2f1e0c7a-6b1d-4d6e-9d1e-6f1d2c3b4a59");
    expect(pinnedUpdateIds(123_456n, "2f1e0c7a-6b1d-4d6e-9d1e-6f1d2c3b4a59")).toEqual(pinned);
    expect(pinned.seed).not.toBe(pinned.updateId);
    expect(newContractId(pinned.seed, 0)).not.toBe(newContractId(pinned.updateId, 0));
  });
});
