import { describe, expect, it } from "vitest";
import type { ContractRecord } from "../../src/ledger/records.js";
import type { CommitRequest } from "../../src/ledger/store-port.js";
import { PartyTemplateCache, setsChangedBy, type PartyTemplate } from "../../src/store/sqlite/party-template-cache.js";

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ contractId: `c${i}` }) as unknown as ContractRecord);
const AMULET = "pkg:Splice.Amulet:Amulet";
const COUPON = "pkg:Splice.Amulet:AppRewardCoupon";

describe("PartyTemplateCache", () => {
  it("keeps a set per party and template, and forgets only the one a write changes", () => {
    const cache = new PartyTemplateCache();
    const a = rows(1);
    const b = rows(2);
    cache.put("alice", AMULET, a);
    cache.put("alice", COUPON, b);
    cache.put("bob", AMULET, b);
    expect([cache.get("alice", AMULET), cache.get("alice", COUPON), cache.get("bob", AMULET), cache.get("bob", COUPON)]).toEqual([a, b, b, undefined]);
    cache.hold([["alice", AMULET]]);
    expect([cache.get("alice", AMULET), cache.get("alice", COUPON), cache.get("bob", AMULET)]).toEqual([undefined, b, b]);
    cache.release([["alice", AMULET]]);
    expect(cache.get("alice", AMULET)).toBeUndefined();
  });

  it("forgets every kept set on request, and still refuses the held ones", () => {
    const cache = new PartyTemplateCache();
    cache.put("alice", AMULET, rows(1));
    cache.put("bob", AMULET, rows(1));
    cache.hold([["bob", COUPON]]);
    cache.forgetAll();
    expect([cache.get("alice", AMULET), cache.get("bob", AMULET)]).toEqual([undefined, undefined]);
    cache.put("bob", COUPON, rows(1));
    expect(cache.get("bob", COUPON)).toBeUndefined();
    cache.release([["bob", COUPON]]);
    const kept = rows(1);
    cache.put("bob", COUPON, kept);
    expect(cache.get("bob", COUPON)).toBe(kept);
  });

  it("keeps no set while a batch that changes it is in flight, counting overlapping batches", () => {
    const cache = new PartyTemplateCache();
    cache.put("alice", AMULET, rows(1));
    const first = [["alice", AMULET]] as const;
    const second = [["alice", AMULET], ["bob", AMULET]] as const;
    cache.hold(first);
    cache.hold(second);
    expect(cache.get("alice", AMULET)).toBeUndefined();
    cache.put("alice", AMULET, rows(1));
    cache.put("bob", AMULET, rows(1));
    expect([cache.get("alice", AMULET), cache.get("bob", AMULET)]).toEqual([undefined, undefined]);
    cache.release(first);
    // The second batch still holds both sets.
    cache.put("alice", AMULET, rows(1));
    expect(cache.get("alice", AMULET)).toBeUndefined();
    cache.release(second);
    const kept = rows(3);
    cache.put("alice", AMULET, kept);
    cache.put("bob", AMULET, kept);
    expect([cache.get("alice", AMULET), cache.get("bob", AMULET)]).toEqual([kept, kept]);
  });

  it("keeps only small sets", () => {
    const cache = new PartyTemplateCache();
    cache.put("alice", AMULET, rows(16));
    cache.put("bob", AMULET, rows(17));
    expect([cache.get("alice", AMULET)?.length, cache.get("bob", AMULET)]).toEqual([16, undefined]);
  });

  it("starts over once it holds 50,000 sets", () => {
    const cache = new PartyTemplateCache();
    const one = rows(1);
    for (let i = 0; i < 50_000; i++) cache.put(`p${i}`, AMULET, one);
    expect([cache.get("p0", AMULET), cache.get("p49999", AMULET)]).toEqual([one, one]);
    cache.put("p50000", AMULET, one);
    expect([cache.get("p0", AMULET), cache.get("p49999", AMULET), cache.get("p50000", AMULET)]).toEqual([undefined, undefined, one]);
  });
});

describe("setsChangedBy", () => {
  const archiving = (archives: string[]) =>
    ({ kind: "transaction", archives, creates: [{ contractId: "new", templateId: AMULET, signatories: ["dso"], observers: ["alice"] }] }) as unknown as CommitRequest;

  it("names each created contract's sets and each archived one's as the store knows them", () => {
    const known: Record<string, PartyTemplate[]> = { old: [["bob", COUPON]] };
    expect(setsChangedBy(archiving(["old"]), (cid) => known[cid])).toEqual([["dso", AMULET], ["alice", AMULET], ["bob", COUPON]]);
  });

  it("is undefined when an archived contract's sets are unknown", () => {
    expect(setsChangedBy(archiving(["old", "unknown"]), (cid) => (cid === "old" ? [["bob", COUPON]] : undefined))).toBeUndefined();
  });
});
