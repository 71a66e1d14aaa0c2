import { describe, expect, it } from "vitest";
import { Numeric } from "../../../src/ledger/numeric.js";
import { chunkHoldings, groupOwners, packBatches } from "../../../src/wallet/automation/merge-delegation-plan.js";

const h = (id: string, v: string) => ({ contractId: id, value: Numeric.parse(v) });

describe("merge delegation plan", () => {
  it("chunks largest first, so dust lands in the last chunk", () => {
    const chunks = chunkHoldings([h("a", "0"), h("b", "5"), h("c", "1"), h("d", "0"), h("e", "3")], 2);
    expect(chunks.map((c) => c.map((x) => x.contractId))).toEqual([["b", "e"], ["c", "a"], ["d"]]);
  });

  it("packs merge calls into batches of at most max inputs, in order", () => {
    const calls = [100, 100, 50, 30, 20, 1].map((inputs, i) => ({ i, inputs }));
    expect(packBatches(calls, 100).map((b) => b.map((c) => c.inputs))).toEqual([[100], [100], [50, 30, 20], [1]]);
    expect(packBatches([], 100)).toEqual([]);
  });

  it("groups owners so a big owner is a group alone", () => {
    const owners = [{ o: "x", count: 250 }, { o: "y", count: 40 }, { o: "z", count: 60 }, { o: "w", count: 11 }];
    expect(groupOwners(owners, 100).map((g) => g.map((x) => x.o))).toEqual([["x"], ["y", "z"], ["w"]]);
  });
});
