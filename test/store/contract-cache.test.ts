import { describe, expect, it } from "vitest";
import type { ContractRecord } from "../../src/ledger/records.js";
import { ContractCache } from "../../src/store/sqlite/contract-cache.js";

const record = (i: number) => ({ contractId: `c${i}` }) as unknown as ContractRecord;
const held = (cache: ContractCache, n: number) => Array.from({ length: n }, (_, i) => cache.get(`c${i}`) !== undefined);

describe("ContractCache", () => {
  it("forgets an archived contract at once", () => {
    const cache = new ContractCache(8);
    const a = record(0);
    cache.put(a);
    expect(cache.get("c0")).toBe(a);
    cache.archived("c0");
    expect(cache.get("c0")).toBeUndefined();
  });

  it("past its limit, forgets its oldest entries down to seven eighths of it, archived ones not counted", () => {
    const cache = new ContractCache(16);
    for (let i = 0; i < 16; i++) cache.put(record(i));
    cache.archived("c3");
    cache.put(record(16));
    expect(held(cache, 17).filter(Boolean)).toHaveLength(16);
    cache.put(record(17));
    // 17 entries: the oldest go until 14 are left (c0, c1, c2); c3 was already gone.
    expect(held(cache, 18)).toEqual([false, false, false, false, ...Array<boolean>(14).fill(true)]);
    cache.put(record(18));
    expect(cache.get("c18")).toBeDefined();
    expect(held(cache, 19).filter(Boolean)).toHaveLength(15);
  });
});
