/** Created-event blobs: what a client hands back as a disclosed contract is read for its ids. */
import { describe, expect, it } from "vitest";
import { createdEventBlobOf, parseCreatedEventBlob } from "../../src/ledger/created-event-blob.js";
import { LedgerError } from "../../src/ledger/errors.js";

const record = {
  contractId: "00" + "ab".repeat(32) + "ca11",
  templateId: "pkg1:Splice.AmuletRules:AmuletRules",
  packageName: "splice-amulet",
  payload: { dso: "DSO::1220aa", configSchedule: { initialValue: { note: "ünïcödé ".repeat(200) } } },
  signatories: ["DSO::1220aa"],
  observers: [],
  createdAt: 1_700_000_000_000_000n,
};

describe("created event blobs", () => {
  it("gives back the ids of a blob this participant made, large payloads included", () => {
    expect(parseCreatedEventBlob(createdEventBlobOf(record))).toEqual({ contractId: record.contractId, templateId: record.templateId });
    const inside = new Uint8Array([9, 9, ...createdEventBlobOf(record)]).subarray(2);
    expect(parseCreatedEventBlob(inside).contractId).toBe(record.contractId);
  });

  it("refuses bytes that are not such a blob", () => {
    for (const bad of [new Uint8Array([1, 2, 3]), Buffer.from('{"v":2,"contractId":"00ab","templateId":"p:M:T"}'), Buffer.from('{"v":1,"contractId":"zz","templateId":"p:M:T",}')]) {
      let error: unknown;
      try {
        parseCreatedEventBlob(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LedgerError);
      expect((error as LedgerError).message).toContain("created_event_blob");
    }
  });
});
