import { describe, expect, it } from "vitest";
import { formatIsoMicros, fromDamlJson, NestingError, parseIsoMicros, t, toDamlJson, ValueError, type DamlType } from "../../src/ledger/daml-type.js";
import { Numeric } from "../../src/ledger/numeric.js";

const rec = t.record({
  owner: t.party,
  amount: t.numeric(),
  count: t.int64,
  at: t.time,
  day: t.date,
  note: t.optional(t.text),
  tags: t.list(t.text),
  meta: t.textMap(t.text),
  pairs: t.genMap(t.text, t.int64),
  kind: t.variant({ A: t.unit, B: t.record({ x: t.int64 }) }),
  color: t.enum(["Red", "Green"] as const),
});

describe("Daml-LF JSON codec", () => {
  const json = {
    owner: "alice::1220ab",
    amount: "1.5",
    count: "42",
    at: "2025-01-02T03:04:05.123456Z",
    day: "2025-02-28",
    note: null,
    tags: ["a"],
    meta: { k: "v" },
    pairs: [["x", "1"]],
    kind: { tag: "B", value: { x: "7" } },
    color: "Green",
  };

  it("round-trips with canonical output", () => {
    const v = fromDamlJson(rec, json) as Record<string, unknown>;
    expect((v.amount as Numeric).toString()).toBe("1.5000000000");
    expect(v.count).toBe(42n);
    expect(v.at).toBe(1735787045123456n);
    expect(toDamlJson(rec, v)).toEqual({ ...json, amount: "1.5000000000" });
  });

  it("names the path of a wrong value", () => {
    const bad = (patch: object) => () => fromDamlJson(rec, { ...json, ...patch });
    expect(bad({ count: 1.5 })).toThrow(/count: expected an Int64/);
    expect(bad({ amount: "1.00000000001" })).toThrow(/amount: more than 10 decimal places/);
    expect(bad({ day: "2025-02-30" })).toThrow(/day: not a date/);
    expect(bad({ kind: { tag: "C", value: {} } })).toThrow(/kind.tag: unknown constructor/);
    expect(bad({ extra: 1 })).toThrow(/extra: unknown field/);
    expect(bad({ tags: ["a", 1] })).toThrow(/tags\[1\]: expected a string/);
    expect(() => fromDamlJson(rec, { ...json, owner: undefined })).toThrow(ValueError);
  });

  it("drops extra fields that are None, as a Daml-LF downgrade does, and refuses any other extra field", () => {
    const v = fromDamlJson(rec, { ...json, lock: null }) as Record<string, unknown>;
    expect("lock" in v).toBe(false);
    expect(v.owner).toBe(json.owner);
    expect(() => fromDamlJson(rec, { ...json, lock: { holders: [] } })).toThrow(/lock: unknown field/);
  });

  it("keeps microseconds in timestamps", () => {
    expect(formatIsoMicros(parseIsoMicros("1970-01-01T00:00:00.000001Z"))).toBe("1970-01-01T00:00:00.000001Z");
    expect(formatIsoMicros(0n)).toBe("1970-01-01T00:00:00Z");
    expect(parseIsoMicros("2025-01-01T01:00:00+01:00")).toBe(parseIsoMicros("2025-01-01T00:00:00Z"));
  });
});

describe("value nesting", () => {
  const nested = (depth: number): unknown => {
    let v: unknown = [];
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  };
  // A recursive type, so depth is the only thing wrong with the deep values.
  const Tree: DamlType = t.lazy(() => t.list(Tree));

  it("accepts 100 levels and refuses 101 with Canton's message", () => {
    expect(fromDamlJson(Tree, nested(99))).toBeInstanceOf(Array);
    expect(() => fromDamlJson(Tree, nested(100))).toThrow(NestingError);
    expect(() => fromDamlJson(Tree, nested(100))).toThrow(/Provided value exceeds maximum nesting level of 100/);
  });

  it("refuses 100,000 levels before recursing, whatever the declared type", () => {
    expect(() => fromDamlJson(Tree, nested(100_000))).toThrow(NestingError);
    expect(() => fromDamlJson(t.list(t.party), nested(100_000))).toThrow(NestingError);
    expect(() => fromDamlJson(t.record({ xs: t.list(t.text) }), { xs: nested(100_000) })).toThrow(NestingError);
  });
});
