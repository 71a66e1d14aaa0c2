import { describe, expect, it } from "vitest";
import { union } from "../../src/ledger/party-union.js";

describe("union of party lists", () => {
  it("keeps each party once, in the order first seen", () => {
    expect(union(["b", "a"], ["a", "c"], [], ["b", "d"])).toEqual(["b", "a", "c", "d"]);
    expect(union()).toEqual([]);
  });

  it("gives the same answer past the short-list scan (a contract with thousands of observers)", () => {
    const many = Array.from({ length: 5000 }, (_, i) => `p${i % 2500}`);
    const out = union(["x"], many, ["p7", "y"]);
    expect(out).toHaveLength(2502);
    expect(out.slice(0, 3)).toEqual(["x", "p0", "p1"]);
    expect(out[out.length - 1]).toBe("y");
  });

  it("returns a new array even for one list, so callers may keep it", () => {
    const list = ["a"];
    expect(union(list)).not.toBe(list);
  });
});
