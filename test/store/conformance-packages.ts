/**
 * Conformance of the package store (uploaded DARs' Daml-LF packages): insert once by id, read the
 * payload back byte for byte, list without payloads in id order, and keep them across a reopen.
 * Run against every adapter next to the main suite (conformance.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import type { PackageRecord, Store } from "../../src/ledger/store-port.js";
import type { Reopen } from "./conformance.js";

function pkg(size: number, name = "demo"): PackageRecord {
  const payload = new Uint8Array(randomBytes(size));
  return { packageId: createHash("sha256").update(payload).digest("hex"), payload, name, version: "1.0.0", knownSince: 1_700_000_000_000_000n };
}

export function describePackageConformance(name: string, open: () => Promise<Store>, reopen: Reopen): void {
  describe(`Store conformance: ${name}: packages`, () => {
    const opened: Store[] = [];
    const track = (s: Store) => (opened.push(s), s);
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it("adds a package once, reads its payload back and lists it without the payload", async () => {
      const store = track(await open());
      const a = pkg(3000, "alpha");
      expect(await store.addPackage(a)).toBe(true);
      expect(await store.addPackage({ ...a, name: "other", knownSince: 5n })).toBe(false);
      const read = await store.package(a.packageId);
      expect(read).toEqual({ ...a, payload: a.payload });
      expect(Buffer.from(read!.payload).equals(Buffer.from(a.payload))).toBe(true);
      expect(await store.package("00".repeat(32))).toBeUndefined();
      const listed = await store.packages();
      expect(listed).toEqual([{ packageId: a.packageId, name: "alpha", version: "1.0.0", knownSince: a.knownSince, size: 3000 }]);
    });

    it("lists in package id order and keeps packages across a reopen", async () => {
      const store = await open();
      const all = [pkg(10), pkg(20), pkg(30)];
      for (const p of all) await store.addPackage(p);
      await store.close();
      const again = track(await reopen(store));
      expect((await again.packages()).map((p) => p.packageId)).toEqual(all.map((p) => p.packageId).sort());
      expect((await again.package(all[1].packageId))?.payload.length).toBe(20);
    });
  });
}
