/** The shared budget of held array answers: taken per element, given back once per answer. */
import { describe, expect, it } from "vitest";
import { AnswerBudget } from "../../../src/api/http/answer-budget.js";
import { MIN_READ_BYTES_PER_S, sendDeadlineMs } from "../../../src/api/http/gateway.js";

describe("AnswerBudget", () => {
  it("holds what answers take up to the budget, and releases each answer's bytes once", () => {
    const budget = new AnswerBudget(100, 100);
    const a = budget.open();
    const b = budget.open();
    expect([a.take(60), b.take(30), b.take(20), budget.heldBytes]).toEqual([true, true, false, 90]);
    a.release();
    a.release();
    expect(budget.heldBytes).toBe(30);
    expect(a.take(1)).toBe(false); // a released answer holds nothing more
    expect(b.take(70)).toBe(true);
    b.release();
    expect(budget.heldBytes).toBe(0);
  });

  it("gives one owner at most its share, so that one user's unread answers cannot lock everyone out", () => {
    // A hostile review held the whole budget with one user's unread answers, and other users' reads got 409s.
    const budget = new AnswerBudget(100);
    expect(budget.maxBytesPerOwner).toBe(25);
    const [a1, a2, b] = [budget.open(), budget.open(), budget.open()];
    a1.ownedBy("alice");
    a2.ownedBy("alice");
    b.ownedBy("bob");
    expect([a1.take(20), a2.take(10), a2.take(5), b.take(25)]).toEqual([true, false, true, true]);
    expect(budget.heldBytes).toBe(50);
    a1.release();
    expect(a2.take(20)).toBe(true); // alice's share is free again once her first answer is gone
    a2.release();
    b.release();
    expect(budget.heldBytes).toBe(0);
  });
});

describe("sendDeadlineMs", () => {
  it("gives an answer a minute, or its length at the minimum rate, and no reader more (16 bytes every 20 s held one for good)", () => {
    expect(MIN_READ_BYTES_PER_S).toBe(65_536);
    expect(sendDeadlineMs(1_000)).toBe(60_000);
    expect(sendDeadlineMs(32 * 1024 * 1024)).toBe(512_000);
  });
});
