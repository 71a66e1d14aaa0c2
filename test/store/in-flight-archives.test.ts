import { describe, expect, it } from "vitest";
import { InFlightArchives } from "../../src/store/sqlite/in-flight-archives.js";

const HOLDING = "pkg:Demo.Holding:Holding";
const LOCKED = "pkg:Demo.Locked:Locked";

describe("InFlightArchives", () => {
  it("finds an archive by its template and any of its stakeholders, or by either alone", () => {
    const a = new InFlightArchives();
    a.add("h1", [["alice", HOLDING], ["dso", HOLDING]]);
    a.add("l1", [["bob", LOCKED]]);
    expect(a.matching({ parties: ["alice"], templateIds: [HOLDING] })).toEqual(["h1"]);
    expect(a.matching({ parties: ["dso"], templateIds: [HOLDING, LOCKED] })).toEqual(["h1"]);
    expect(a.matching({ parties: ["bob"], templateIds: [HOLDING] })).toEqual([]);
    expect(a.matching({ parties: ["bob"] })).toEqual(["l1"]);
    expect(a.matching({ templateIds: [LOCKED] })).toEqual(["l1"]);
    expect(a.matching({}).sort()).toEqual(["h1", "l1"]);
    expect(a.matching({ templateIds: ["pkg:Other:Other"] })).toEqual([]);
  });

  it("keeps an archive until every batch in flight that archives it is answered", () => {
    const a = new InFlightArchives();
    a.add("h1", [["alice", HOLDING]]);
    a.add("h1", [["alice", HOLDING]]); // a second batch lost the race for it
    a.remove([{ contractId: "h1", template: HOLDING }]);
    expect(a.matching({ parties: ["alice"] })).toEqual(["h1"]);
    a.remove([{ contractId: "h1", template: HOLDING }]);
    expect(a.matching({ parties: ["alice"] })).toEqual([]);
    a.remove([{ contractId: "h1", template: HOLDING }, { contractId: "unknown", template: LOCKED }]); // nothing left: no effect
    expect(a.matching({})).toEqual([]);
  });

  it("offers every archive of an unknown contract to every read, until its batch is answered", () => {
    const a = new InFlightArchives();
    const made = a.add("y", undefined);
    expect(made).toEqual({ contractId: "y", template: undefined });
    a.add("h1", [["alice", HOLDING]]);
    expect(a.matching({ parties: ["bob"], templateIds: [LOCKED] })).toEqual(["y"]);
    expect(a.matching({ parties: ["alice"], templateIds: [HOLDING, HOLDING] })).toEqual(["h1", "y"]);
    a.remove([made]);
    expect(a.matching({})).toEqual(["h1"]);
  });
});
