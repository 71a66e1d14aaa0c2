/**
 * Command ids from idempotency keys: a key that fits a LedgerString is kept, any other is hashed,
 * and no two different keys share a command id, a key that spells another key's hash included
 * (found by a helper reading the code: the second of two payments was refused as a duplicate).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { commandIdFor } from "../../../src/wallet/support/command-ids.js";

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("commandIdFor", () => {
  it("keeps a key that fits, and hashes one that does not", () => {
    expect(commandIdFor("send", "payment-1")).toBe("send-payment-1");
    expect(commandIdFor("send", "pâiement 1")).toBe(`send-sha256-${sha256("pâiement 1")}`);
    expect(commandIdFor("send", "")).toBe(`send-sha256-${sha256("")}`);
  });

  it("gives a key that spells another key's hash a command id of its own", () => {
    const other = "pâiement 1";
    const lookalike = `sha256-${sha256(other)}`;
    expect(commandIdFor("send", lookalike)).not.toBe(commandIdFor("send", other));
    expect(commandIdFor("send", lookalike)).toBe(`send-sha256-${sha256(lookalike)}`);
    // The same key, retried, keeps its command id.
    expect(commandIdFor("send", lookalike)).toBe(commandIdFor("send", lookalike));
  });
});
