import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/ledger/bounded-map.js";

describe("BoundedMap", () => {
  it("forgets its oldest entries past the count, down to 7/8 of it", () => {
    const m = new BoundedMap<number, string>({ maxEntries: 8, maxBytes: 1_000, maxEntryBytes: 100 });
    for (let i = 0; i < 8; i++) m.set(i, `v${i}`, 1);
    m.set(8, "v8", 1);
    expect(m.size).toBe(8); // 7 kept, then the new one
    expect(m.get(0)).toBeUndefined();
    expect([1, 8].map((k) => m.get(k))).toEqual(["v1", "v8"]);
  });

  it("forgets past the total size, and keeps no entry above the entry limit", () => {
    const m = new BoundedMap<string, number>({ maxEntries: 100, maxBytes: 100, maxEntryBytes: 50 });
    m.set("a", 1, 40);
    m.set("b", 2, 40);
    m.set("c", 3, 40); // 120 > 100: a goes (to at most 87 - 40)
    expect([m.get("a"), m.get("b"), m.get("c")]).toEqual([undefined, 2, 3]);
    m.set("big", 4, 51);
    expect(m.get("big")).toBeUndefined();
  });

  it("take answers an entry once and gives back its size", () => {
    const m = new BoundedMap<string, number>({ maxEntries: 100, maxBytes: 100, maxEntryBytes: 60 });
    m.set("a", 1, 60);
    expect(m.take("a")).toBe(1);
    expect(m.take("a")).toBeUndefined();
    expect(m.get("a")).toBeUndefined();
    // Its 60 bytes were given back: two more of 50 fit without evicting the first.
    m.set("b", 2, 50);
    m.set("c", 3, 50);
    expect([m.get("b"), m.get("c"), m.size]).toEqual([2, 3, 2]);
  });
});
