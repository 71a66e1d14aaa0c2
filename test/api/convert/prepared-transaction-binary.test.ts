/**
 * The hand-written PreparedTransaction encoder writes exactly what protobuf-es's toBinary writes:
 * on the published vector, on a thousand random transactions (every Value case, every node kind,
 * zero and extreme integers, empty and non-ASCII strings, long fields whose length needs a
 * longer varint, optional fields set to zero or absent), and through toBinary for what it leaves
 * to it (unknown fields, global key mappings).
 */
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PreparedTransactionSchema, type PreparedTransaction } from "../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import type { ValueSchema } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { preparedTransactionBytes } from "../../../src/api/convert/prepared-transaction-binary.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const reference = (p: PreparedTransaction) => hex(toBinary(PreparedTransactionSchema, p));

/** A small seeded generator (mulberry32), so a failure names a reproducible seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const text = () => pick(["", "a", "Splice.Amulet", "ünïcødé ✓", "x".repeat(200), "y".repeat(20_000), `alice::1220${"ab".repeat(32)}`]);
  const bigint = () => pick([0n, 1n, -1n, 127n, 128n, 2n ** 53n, -(2n ** 63n), 2n ** 63n - 1n, BigInt(int(1e9))]);
  const uint64 = () => pick([0n, 1n, 300n, 2n ** 53n + 1n, 2n ** 64n - 1n, 1_763_000_000_000_000n]);
  const bytes = () => pick([new Uint8Array(0), new Uint8Array(32).fill(7), new Uint8Array(300).fill(1)]);
  const strings = () => Array.from({ length: int(4) }, text);
  const identifier = () => ({ packageId: text(), moduleName: text(), entityName: text() });
  const value = (depth: number): MessageInitShape<typeof ValueSchema> => {
    const leaf = depth > 3;
    switch (int(leaf ? 9 : 16)) {
      case 0:
        return { sum: { case: "unit", value: {} } };
      case 1:
        return { sum: { case: "bool", value: next() < 0.5 } };
      case 2:
        return { sum: { case: "int64", value: bigint() } };
      case 3:
        return { sum: { case: "date", value: pick([0, 1, -1, 20_000, -2_147_483_648, 2_147_483_647]) } };
      case 4:
        return { sum: { case: "timestamp", value: bigint() } };
      case 5:
        return { sum: { case: "numeric", value: pick(["0.0000000000", "-12.5000000000", ""]) } };
      case 6:
        return { sum: { case: "party", value: text() } };
      case 7:
        return { sum: { case: "text", value: text() } };
      case 8:
        return { sum: { case: "contractId", value: text() } };
      case 9:
        return { sum: { case: "optional", value: next() < 0.5 ? {} : { value: value(depth + 1) } } };
      case 10:
        return { sum: { case: "list", value: { elements: Array.from({ length: int(4) }, () => value(depth + 1)) } } };
      case 11:
        return { sum: { case: "textMap", value: { entries: Array.from({ length: int(3) }, () => ({ key: text(), value: value(depth + 1) })) } } };
      case 12:
        return { sum: { case: "genMap", value: { entries: Array.from({ length: int(3) }, () => ({ key: value(depth + 1), value: next() < 0.2 ? undefined : value(depth + 1) })) } } };
      case 13:
        return {
          sum: {
            case: "record",
            value: { recordId: next() < 0.5 ? identifier() : undefined, fields: Array.from({ length: int(4) }, () => ({ label: text(), value: value(depth + 1) })) },
          },
        };
      case 14:
        return { sum: { case: "variant", value: { variantId: next() < 0.5 ? identifier() : undefined, constructor$: text(), value: value(depth + 1) } } };
      default:
        return { sum: { case: "enum", value: { enumId: next() < 0.5 ? identifier() : undefined, constructor$: text() } } };
    }
  };
  const contract = () => ({ lfVersion: text(), contractId: text(), packageName: text(), templateId: next() < 0.9 ? identifier() : undefined, signatories: strings(), stakeholders: strings() });
  const createNode = () => ({ ...contract(), argument: next() < 0.9 ? value(0) : undefined });
  const nodeType = () => {
    switch (int(4)) {
      case 0:
        return { case: "create" as const, value: createNode() };
      case 1:
        return { case: "fetch" as const, value: { ...contract(), actingParties: strings(), interfaceId: next() < 0.5 ? identifier() : undefined } };
      case 2:
        return {
          case: "exercise" as const,
          value: {
            ...contract(),
            actingParties: strings(),
            interfaceId: next() < 0.5 ? identifier() : undefined,
            choiceId: text(),
            chosenValue: value(0),
            consuming: next() < 0.5,
            children: strings(),
            exerciseResult: next() < 0.7 ? value(0) : undefined,
            choiceObservers: strings(),
          },
        };
      default:
        return { case: "rollback" as const, value: { children: strings() } };
    }
  };
  const optional = () => (next() < 0.5 ? undefined : uint64());
  const prepared = (): PreparedTransaction =>
    create(PreparedTransactionSchema, {
      transaction:
        next() < 0.05
          ? undefined
          : {
              version: text(),
              roots: strings(),
              nodes: Array.from({ length: int(5) }, () => ({ nodeId: text(), versionedNode: next() < 0.95 ? { case: "v1" as const, value: { nodeType: nodeType() } } : { case: undefined } })),
              nodeSeeds: Array.from({ length: int(3) }, () => ({ nodeId: pick([0, 1, 300, 2_147_483_647]), seed: bytes() })),
            },
      metadata:
        next() < 0.05
          ? undefined
          : {
              submitterInfo: next() < 0.9 ? { actAs: strings(), commandId: text() } : undefined,
              synchronizerId: text(),
              mediatorGroup: pick([0, 1, 4_294_967_295]),
              transactionUuid: text(),
              preparationTime: uint64(),
              inputContracts: Array.from({ length: int(3) }, () => ({ contract: next() < 0.9 ? { case: "v1" as const, value: createNode() } : { case: undefined }, createdAt: uint64(), eventBlob: bytes() })),
              minLedgerEffectiveTime: optional(),
              maxLedgerEffectiveTime: optional(),
              maxRecordTime: optional(),
            },
    });
  return { prepared };
}

describe("preparedTransactionBytes", () => {
  it("writes the published vector's bytes back exactly", () => {
    const vectors = JSON.parse(readFileSync(new URL("../../../../shared/reference/vectors/external-signing.json", import.meta.url), "utf8"));
    const bytes = Buffer.from(vectors.prepared_transaction_v2.prepared_transaction_base64, "base64");
    expect(hex(preparedTransactionBytes(fromBinary(PreparedTransactionSchema, bytes)))).toBe(hex(bytes));
  });

  it("writes what toBinary writes for a thousand random transactions", () => {
    const gen = random(20261127);
    for (let i = 0; i < 1000; i++) {
      const p = gen.prepared();
      expect(hex(preparedTransactionBytes(p)), `transaction ${i}`).toBe(reference(p));
    }
  });

  it("leaves unknown fields and global key mappings to toBinary", () => {
    const p = random(7).prepared();
    // Field 99 of the transaction, a varint 1: kept by fromBinary as an unknown field.
    const withUnknown = fromBinary(PreparedTransactionSchema, Buffer.concat([toBinary(PreparedTransactionSchema, p), Buffer.from([0x0a, 0x03, 0x98, 0x06, 0x01])]));
    expect(withUnknown.transaction?.$unknown).toBeDefined();
    expect(hex(preparedTransactionBytes(withUnknown))).toBe(reference(withUnknown));
    const mapped = create(PreparedTransactionSchema, { metadata: { globalKeyMapping: [{ key: { packageName: "p", key: { sum: { case: "text", value: "k" } } } }] } });
    expect(hex(preparedTransactionBytes(mapped))).toBe(reference(mapped));
  });
});
