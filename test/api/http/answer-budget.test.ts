/** The shared budget of held array answers: taken per element, given back once per answer. */
import { describe, expect, it } from "vitest";
import { AnswerBudget } from "../../../src/api/http/answer-budget.js";

describe("AnswerBudget", () => {
  it("holds what answers take up to the budget, and releases each answer's bytes once", () => {
    const budget = new AnswerBudget(100);
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
});
