import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { PreparedTransactionSchema } from "../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { PreparedTexts, sampledKey } from "../../../src/api/http/prepared-texts.js";

const limits = { maxEntries: 100, maxBytes: 1 << 20, maxEntryBytes: 1 << 16 };
const message = (uuid: string) => create(PreparedTransactionSchema, { metadata: { transactionUuid: uuid } });
/** A base64-like text of `n` characters. */
const text = (n: number, seed: number) => Array.from({ length: n }, (_, i) => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i * 31 + seed * 17) % 64]).join("");
/** `t` with the character at `i` changed. */
const changedAt = (t: string, i: number) => t.slice(0, i) + (t[i] === "A" ? "B" : "A") + t.slice(i + 1);

describe("prepared transactions remembered by their text", () => {
  it("hands the message back once, for exactly the text it was answered as", () => {
    const texts = new PreparedTexts(limits);
    const t = text(1600, 1);
    const m = message("u1");
    texts.remember(t, m);
    expect(texts.take(t.slice(0, 800) + t.slice(800))).toBe(m); // an equal text, not the same string
    expect(texts.take(t)).toBeUndefined();
  });

  it("a text that only shares the sampled key is a miss and leaves the entry for its own text", () => {
    const texts = new PreparedTexts(limits);
    const t = text(1600, 2);
    const m = message("u2");
    texts.remember(t, m);
    // Position len-2 is not sampled (every 8th from the end): same key, different text.
    const impostor = changedAt(t, t.length - 2);
    expect(sampledKey(impostor)).toBe(sampledKey(t));
    expect(texts.take(impostor)).toBeUndefined();
    expect(texts.take(t)).toBe(m);
  });

  it("texts that differ in a UUID's worth of characters anywhere have different keys", () => {
    const t = text(1600, 3);
    for (let at = 0; at + 48 <= t.length; at += 37) {
      let other = t;
      for (let i = at; i < at + 48; i++) other = changedAt(other, i);
      expect(sampledKey(other)).not.toBe(sampledKey(t));
    }
  });

  it("a later text with the same key replaces the earlier one, which then decodes instead", () => {
    const texts = new PreparedTexts(limits);
    const t = text(1600, 4);
    const later = changedAt(t, t.length - 2);
    const [m1, m2] = [message("a"), message("b")];
    texts.remember(t, m1);
    texts.remember(later, m2);
    expect(texts.take(t)).toBeUndefined();
    expect(texts.take(later)).toBe(m2);
  });
});
