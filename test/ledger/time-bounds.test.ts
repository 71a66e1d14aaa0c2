/**
 * Daml's ledger-time comparisons as bounds: each answer narrows the ledger time to the side of
 * the compared time it was on, so any time within the bounds gives the same answers.
 */
import { describe, expect, it } from "vitest";
import { compareLedgerTime, nearestWithin, preparedBounds, within, UNBOUNDED, type TimeComparison } from "../../src/ledger/time-bounds.js";

describe("ledger-time comparisons", () => {
  const cases: [TimeComparison, bigint, boolean, object][] = [
    // ledger time 100
    ["LT", 101n, true, { max: 100n }],
    ["LT", 100n, false, { min: 100n }],
    ["LE", 100n, true, { max: 100n }],
    ["LE", 99n, false, { min: 100n }],
    ["GT", 99n, true, { min: 100n }],
    ["GT", 100n, false, { max: 100n }],
    ["GE", 100n, true, { min: 100n }],
    ["GE", 101n, false, { max: 100n }],
    ["LT", 500n, true, { max: 499n }],
    ["GE", 10n, true, { min: 10n }],
  ];
  it.each(cases)("%s %d at 100 is %s, bounded to %o", (op, time, answer, bounds) => {
    const r = compareLedgerTime(UNBOUNDED, 100n, op, time);
    expect(r.answer).toBe(answer);
    expect(r.bounds).toEqual(bounds);
    // Every time within the bounds answers the same.
    for (const t of [r.bounds.min, r.bounds.max].filter((x): x is bigint => x !== undefined)) {
      expect(compareLedgerTime(UNBOUNDED, t, op, time).answer).toBe(answer);
    }
  });

  it("keeps the tightest of several comparisons", () => {
    let b = compareLedgerTime(UNBOUNDED, 100n, "LT", 200n).bounds;
    b = compareLedgerTime(b, 100n, "LT", 150n).bounds;
    b = compareLedgerTime(b, 100n, "LT", 300n).bounds;
    b = compareLedgerTime(b, 100n, "GE", 50n).bounds;
    b = compareLedgerTime(b, 100n, "GE", 20n).bounds;
    expect(b).toEqual({ min: 50n, max: 149n });
    expect([within(b, 49n), within(b, 50n), within(b, 149n), within(b, 150n)]).toEqual([false, true, true, false]);
    expect([nearestWithin(b, 10n), nearestWithin(b, 100n), nearestWithin(b, 900n)]).toEqual([50n, 100n, 149n]);
  });

  it("states a transaction that read the time as fixed at the time it was interpreted at", () => {
    expect(preparedBounds({ usesTime: true, timeBounds: { max: 900n } }, 100n)).toEqual({ min: 100n, max: 100n });
    expect(preparedBounds({ usesTime: false, timeBounds: { max: 900n } }, 100n)).toEqual({ max: 900n });
    expect(preparedBounds({ usesTime: false, timeBounds: UNBOUNDED }, 100n)).toEqual({});
  });
});
