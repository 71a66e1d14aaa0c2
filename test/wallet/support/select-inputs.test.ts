import { describe, expect, it } from "vitest";
import { Numeric } from "../../../src/ledger/numeric.js";
import { selectInputs, type Candidate } from "../../../src/wallet/support/select-inputs.js";

const n = Numeric.parse;
const h = (id: string, v: string): Candidate => ({ contractId: id, value: n(v), kind: "holding" });
const c = (id: string, v: string): Candidate => ({ contractId: id, value: n(v), kind: "coupon" });
const ids = (s: ReturnType<typeof selectInputs>) => (s.kind === "ok" ? s.inputs.map((i) => i.contractId) : s.kind);

describe("selectInputs", () => {
  it("takes coupons first, then the smallest holdings until covered", () => {
    expect(ids(selectInputs([h("big", "50"), h("s1", "1"), h("s2", "2"), c("cp", "3")], n("5")))).toEqual(["cp", "s1", "s2"]);
  });
  it("refuses when everything together is not enough", () => {
    const s = selectInputs([h("a", "1"), h("b", "2")], n("4"));
    expect(s).toEqual({ kind: "insufficient", available: n("3") });
  });
  it("covers with the largest when smallest-first needs more than 100 inputs, and fills the free slots with dust", () => {
    const dust = Array.from({ length: 150 }, (_, i) => h(`d${i}`, "0.1"));
    const s = selectInputs([...dust, h("big", "20")], n("25"));
    expect(s.kind).toBe("ok");
    if (s.kind !== "ok") return;
    expect(s.inputs).toHaveLength(100);
    expect(s.inputs[0].contractId).toBe("big");
    expect(s.total.toString()).toBe(n("29.9").toString());
  });
  it("says when 100 inputs cannot cover the amount though the party has enough", () => {
    const dust = Array.from({ length: 150 }, (_, i) => h(`d${i}`, "1"));
    expect(selectInputs(dust, n("120"))).toEqual({ kind: "too-many-inputs", coverableWithMax: n("100") });
  });
});
