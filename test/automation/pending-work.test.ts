/** The automation loop's book of owed work: what makes a step due, and for which parties. */
import { describe, expect, it } from "vitest";
import { automationStep, type AutomationStep } from "../../src/automation/automation-step.js";
import { PendingWork } from "../../src/automation/pending-work.js";
import type { NodeRecord, TransactionRecord } from "../../src/ledger/records.js";
import { qualifiedId } from "../../src/ledger/template.js";
import { Amulet, AppRewardCoupon } from "../../src/templates/splice/amulet.js";
import { IssuingMiningRound } from "../../src/templates/splice/round.js";

const noop = async () => false;
const merge = automationStep("merge", { watches: [Amulet] }, noop);
const collect = automationStep("collect", { watches: [IssuingMiningRound] }, noop);
const expire = automationStep("expire", { timed: true }, noop);
const steps = [merge, collect, expire];

const tx = (...nodes: Partial<NodeRecord>[]) => ({ nodes }) as unknown as TransactionRecord;
const created = (template: { id: Parameters<typeof qualifiedId>[0] }, signatories: string[], observers: string[] = []) =>
  ({ kind: "create", templateId: qualifiedId(template.id), signatories, observers }) as Partial<NodeRecord>;
const exercised = (template: { id: Parameters<typeof qualifiedId>[0] }, consuming: boolean, stakeholders: string[]) =>
  ({ kind: "exercise", templateId: qualifiedId(template.id), consuming, stakeholders }) as Partial<NodeRecord>;
const view = (m: Map<AutomationStep, "all" | ReadonlySet<string>>) =>
  Object.fromEntries([...m].map(([s, scope]) => [s.name, scope === "all" ? "all" : [...scope].sort()]));

describe("pending automation work", () => {
  it("owes a step the stakeholders of the watched contracts a transaction created or archived", () => {
    const book = new PendingWork(steps);
    expect(book.changed(tx(created(AppRewardCoupon, ["dso", "validator"])))).toBe(false);
    expect(book.isEmpty).toBe(true);
    expect(book.changed(tx(exercised(Amulet, false, ["dso", "alice"])))).toBe(false);
    expect(book.changed(tx(exercised(Amulet, true, ["dso", "alice"]), created(Amulet, ["dso"], ["bob"])))).toBe(true);
    expect(book.changed(tx(created(Amulet, ["dso", "carol"])))).toBe(true);
    expect(view(book.take())).toEqual({ merge: ["alice", "bob", "carol", "dso"] });
    expect(book.isEmpty).toBe(true);
  });

  it("owes timed steps everything on a tick and every step everything on demand", () => {
    const book = new PendingWork(steps);
    book.changed(tx(created(Amulet, ["dso", "alice"])));
    book.tick();
    expect(view(book.take())).toEqual({ merge: ["alice", "dso"], expire: "all" });
    book.changed(tx(created(Amulet, ["dso", "alice"])));
    book.everything();
    expect(view(book.take())).toEqual({ merge: "all", collect: "all", expire: "all" });
  });

  it("keeps a failed step for the next tick, merged with what it is owed by then", () => {
    const book = new PendingWork(steps);
    book.retryLater(merge, new Set(["alice"]));
    expect(book.isEmpty).toBe(true);
    book.changed(tx(created(Amulet, ["bob"])));
    book.tick();
    expect(view(book.take())).toEqual({ merge: ["alice", "bob"], expire: "all" });
    book.tick();
    expect(view(book.take())).toEqual({ expire: "all" });
  });
});
