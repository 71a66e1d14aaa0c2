/** Pure pieces of the offer use cases: tracked command ids, history event ids, the automation's error policy. */
import { describe, expect, it } from "vitest";
import { actOnAll, actOnEach } from "../../../src/wallet/automation/act-on-each.js";
import { errors } from "../../../src/ledger/errors.js";
import { isLedgerString } from "../../../src/ledger/ids.js";
import { actionCommandId } from "../../../src/wallet/support/contract-action.js";
import { eventIdOf, parseEventId } from "../../../src/wallet/support/history-items.js";
import { trackedCommandId } from "../../../src/wallet/support/tracked-submission.js";

describe("trackedCommandId", () => {
  it("keeps command-id-safe tracking ids readable and hashes the others; the two forms never collide", () => {
    expect(trackedCommandId("transfer-offer", "abc-123")).toBe("transfer-offer:abc-123");
    const hashed = trackedCommandId("transfer-offer", "ünï.code");
    expect(hashed).toMatch(/^transfer-offer#[0-9a-f]{64}$/);
    expect(trackedCommandId("transfer-offer", "ünï.code")).toBe(hashed);
    expect(trackedCommandId("transfer-offer", hashed.slice("transfer-offer".length))).not.toBe(hashed);
    expect(trackedCommandId("buy-traffic-request", "abc-123")).not.toBe(trackedCommandId("transfer-offer", "abc-123"));
    for (const id of ["x".repeat(279), "a b/c#d", "ünï.code"]) expect(isLedgerString(trackedCommandId("transfer-offer", id))).toBe(true);
  });

  it("action command ids are valid command ids for any contract id", () => {
    expect(isLedgerString(actionCommandId("accepted-transfer-offer-complete", "00" + "ab".repeat(34) + "ca11"))).toBe(true);
  });
});

describe("history event ids", () => {
  it("round-trip and refuse other shapes", () => {
    const id = eventIdOf("1220abcdef", 7);
    expect(id).toBe("#1220abcdef:7");
    expect(parseEventId(id)).toEqual({ updateId: "1220abcdef", nodeId: 7 });
    for (const bad of ["1220ab:1", "#1220ab", "#1220ab:x", "#XYZ:1", "#1220ab:1:2", ""]) expect(parseEventId(bad)).toBeUndefined();
  });
});

describe("actOnAll", () => {
  it("acts on every item even when one fails, then rethrows: contention as is (repeat the pass), anything else wrapped (end it)", async () => {
    const done: number[] = [];
    const contention = errors.inactiveContracts(["00ab"]);
    await expect(
      actOnAll([1, 2, 3], async (i) => {
        if (i === 2) throw contention;
        done.push(i);
      }),
    ).rejects.toBe(contention);
    expect(done).toEqual([1, 3]);
    const boom = new Error("boom");
    await expect(actOnAll([1], async () => Promise.reject(boom))).rejects.toMatchObject({ message: "wallet automation action failed", cause: boom });
    expect(await actOnAll([], async () => undefined)).toBe(false);
    expect(await actOnAll([1], async () => false)).toBe(false);
    expect(await actOnAll([1], async () => undefined)).toBe(true);
  });
});

describe("actOnEach", () => {
  it("gives every item its turn, in order, even after one fails; then rethrows the first failure as actOnAll does", async () => {
    const done: number[] = [];
    let running = 0;
    const contention = errors.inactiveContracts(["00ab"]);
    await expect(
      actOnEach([1, 2, 3, 4], async (i) => {
        expect(running++).toBe(0); // one at a time
        await new Promise((r) => setTimeout(r, 1));
        running--;
        if (i === 2) throw contention;
        if (i === 3) throw new Error("later");
        done.push(i);
      }),
    ).rejects.toBe(contention);
    expect(done).toEqual([1, 4]);
    const boom = new Error("boom");
    await expect(actOnEach([1], async () => Promise.reject(boom))).rejects.toMatchObject({ message: "wallet automation action failed", cause: boom });
    expect(await actOnEach([], async () => true)).toBe(false);
    expect(await actOnEach([1, 2], async (i) => i === 2)).toBe(true);
  });
});
