/** Update and contract ids: Canton's shapes, and ordered by creation (so store indexes append). */
import { describe, expect, it } from "vitest";
import { isContractId, isLedgerString, newContractId, newUpdateId } from "../../src/ledger/ids.js";

describe("ids", () => {
  it("update ids are 1220 + 64 hex and strictly increase, even within one microsecond", () => {
    const ids = Array.from({ length: 5000 }, () => newUpdateId());
    for (const id of ids) expect(id).toMatch(/^1220[0-9a-f]{64}$/);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(isLedgerString(ids[0])).toBe(true);
  });

  it("contract ids are 00 + 64 hex + suffix, ordered with their update and distinct per node", () => {
    const [u1, u2] = [newUpdateId(), newUpdateId()];
    const c = [newContractId(u1, 0), newContractId(u1, 1), newContractId(u2, 0)];
    for (const id of c) expect(id).toMatch(/^00[0-9a-f]{64}ca11$/);
    expect(c.every(isContractId)).toBe(true);
    expect(new Set(c).size).toBe(3);
    expect(c[2] > c[0] && c[2] > c[1]).toBe(true);
    expect(newContractId(u1, 1)).toBe(c[1]);
  });
});
