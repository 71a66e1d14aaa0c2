/**
 * The network cache answers from memory until a commit touches a rules or round contract, then
 * reads again: a round the DSO opens is seen by the next read, a commit of anything else keeps
 * the cached state (no store read).
 */
import { describe, expect, it } from "vitest";
import type { LedgerClient } from "../../src/ledger/ledger-client.js";
import type { TransactionRecord } from "../../src/ledger/records.js";
import { qualifiedId } from "../../src/ledger/template.js";
import { NetworkCache } from "../../src/network/network-cache.js";
import { OpenMiningRound } from "../../src/templates/splice/round.js";

/** A client whose `active` counts its calls and answers from a mutable list of rules/rounds. */
function countingClient() {
  const calls = { n: 0 };
  const rules = [{ contractId: "rules", payload: {}, record: {} }];
  const client = {
    active: async (template: { id: { entityName: string } }) => {
      calls.n++;
      return template.id.entityName === "AmuletRules" ? rules : [];
    },
  } as unknown as LedgerClient;
  return { client, calls };
}

function feed() {
  const listeners: ((tx: TransactionRecord) => void)[] = [];
  return {
    subscribe: (l: (tx: TransactionRecord) => void) => (listeners.push(l), () => undefined),
    deliver: (templateId: string) => listeners.forEach((l) => l({ nodes: [{ kind: "create", templateId }] } as unknown as TransactionRecord)),
  };
}

describe("NetworkCache", () => {
  it("reads once, keeps the state across unrelated commits, reads again after a round changes", async () => {
    const { client, calls } = countingClient();
    const f = feed();
    const cache = new NetworkCache(client, "dso::1220", f);
    const first = await cache.read();
    expect(calls.n).toBe(4);
    f.deliver("abc:Splice.Amulet:Amulet");
    expect(await cache.read()).toBe(first);
    expect(calls.n).toBe(4);
    f.deliver(qualifiedId(OpenMiningRound.id));
    const second = await cache.read();
    expect(second).not.toBe(first);
    expect(calls.n).toBe(8);
  });

  it("does not keep a failed read", async () => {
    let fail = true;
    const client = { active: async () => (fail ? Promise.reject(new Error("store down")) : [{ contractId: "rules" }]) } as unknown as LedgerClient;
    const cache = new NetworkCache(client, "dso::1220", feed());
    await expect(cache.read()).rejects.toThrow("store down");
    fail = false;
    await expect(cache.read()).resolves.toMatchObject({ rules: { contractId: "rules" } });
  });
});
