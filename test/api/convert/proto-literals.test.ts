/**
 * Values and prepared transactions are built as literals of their generated message types rather
 * than through protobuf-es's `create`. A literal must be exactly the object protobuf-es would
 * build: every `$typeName` right, every implicit field present with its value or default, no
 * unset optional field present as `undefined`. Decoding a message's own bytes gives the object
 * protobuf-es builds for them, so each literal must equal its binary round trip, strictly.
 */
import { fromBinary, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { PreparedTransactionSchema } from "../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { ValueSchema } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { preparedTransactionOf } from "../../../src/api/convert/prepared-transaction.js";
import { valueToProto } from "../../../src/api/convert/daml-value-proto.js";
import { fromDamlJson, t } from "../../../src/ledger/daml-type.js";
import type { ContractRecord, CreateNodeRecord, ExerciseNodeRecord } from "../../../src/ledger/records.js";
import { TemplateRegistry } from "../../../src/ledger/registry.js";
import type { Template } from "../../../src/ledger/template.js";
import { Iou } from "../../../src/templates/demo.js";

/** Bytes fields hold Node Buffers (a Uint8Array, as protobuf-es takes them); decoding gives plain Uint8Arrays. */
function plainBytes<T>(x: T): T {
  if (Buffer.isBuffer(x)) return new Uint8Array(x) as T;
  if (Array.isArray(x)) return x.map(plainBytes) as T;
  if (x !== null && typeof x === "object" && !(x instanceof Uint8Array)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plainBytes(v)])) as T;
  return x;
}

function roundTrip<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): MessageShape<Desc> {
  return fromBinary(schema, toBinary(schema, message));
}

const ref = (entityName: string) => ({ packageName: "ccwallet-test", moduleName: "Test.Literals", entityName });
const leaf = t.record({ n: t.numeric(10), p: t.party, d: t.date, at: t.time, i: t.int64, b: t.bool, u: t.unit, c: t.contractId });
const everything = t.record(
  {
    leaf,
    anonymous: t.record({ x: t.text }),
    maybe: t.optional(t.text),
    none: t.optional(leaf),
    list: t.list(t.variant({ One: t.int64, Two: leaf }, ref("Choice"))),
    empty: t.list(t.text),
    textMap: t.textMap(t.optional(t.bool)),
    genMap: t.genMap(t.party, t.list(t.int64)),
    color: t.enum(["Red", "Green"], ref("Color")),
    anonymousEnum: t.enum(["A"]),
    anonymousVariant: t.variant({ Only: t.unit }),
  },
  ref("Everything"),
);
const party = `alice::1220${"ab".repeat(32)}`;
const leafJson = { n: "1.5000000000", p: party, d: "2026-11-28", at: "2026-11-28T07:00:00.123456Z", i: "-9007199254740993", b: true, u: {}, c: "00aa" };
const everythingJson = {
  leaf: leafJson,
  anonymous: { x: "ünïcødé" },
  maybe: "here",
  none: null,
  list: [
    { tag: "One", value: "7" },
    { tag: "Two", value: leafJson },
  ],
  empty: [],
  textMap: { a: true, b: null },
  genMap: [[party, ["1", "2"]]],
  color: "Green",
  anonymousEnum: "A",
  anonymousVariant: { tag: "Only", value: {} },
};

describe("valueToProto", () => {
  it("builds the very Value protobuf-es decodes from its bytes, for every kind of value", () => {
    const value = valueToProto(everything, fromDamlJson(everything, everythingJson));
    expect(value).toStrictEqual(roundTrip(ValueSchema, value));
    expect(value.sum.case).toBe("record");
  });
});

describe("preparedTransactionOf", () => {
  it("builds the very PreparedTransaction protobuf-es decodes from its bytes", () => {
    const registry = new TemplateRegistry([Iou as unknown as Template<never>]);
    const templateId = `${Iou.id.packageId}:${Iou.id.moduleName}:${Iou.id.entityName}`;
    const iou = { issuer: party, owner: party, currency: "CC", amount: "2.0000000000", observers: [] };
    const common = { templateId, packageName: Iou.id.packageName, signatories: [party], stakeholders: [party], witnesses: [party] };
    const created = { kind: "create", nodeId: 1, contractId: "00bb", payload: iou, observers: [], ...common } as unknown as CreateNodeRecord;
    const input = { contractId: "00aa", payload: iou, observers: [], createdAt: 5n, ...common } as unknown as ContractRecord;
    const exercised = {
      kind: "exercise",
      nodeId: 0,
      contractId: "00aa",
      choice: "Iou_Transfer",
      argument: { newOwner: party },
      result: "00bb",
      consuming: true,
      actingParties: [party],
      lastDescendantNodeId: 1,
      ...common,
    } as unknown as ExerciseNodeRecord;
    const fetched = { parent: 0, before: 1, contractId: "00aa", templateId, packageName: Iou.id.packageName, signatories: [party], stakeholders: [party], actingParties: [party] };
    for (const timeBounds of [{}, { min: 10n, max: 20n }]) {
      const prepared = preparedTransactionOf(
        {
          interpreted: { nodes: [exercised, created], fetches: [fetched], usesTime: false, timeBounds },
          inputContracts: [input],
          seed: "11".repeat(32),
          actAs: [party],
          commandId: "literals",
          synchronizerId: "sync::1220",
          transactionUuid: "6d9f0d2e-5a0f-4a4e-9d53-3d9c1a8a0c11",
          preparationTime: 15n,
        },
        registry,
      );
      expect(plainBytes(prepared)).toStrictEqual(roundTrip(PreparedTransactionSchema, prepared));
      expect(prepared.transaction?.nodes.map((n) => n.versionedNode.value?.nodeType.case)).toEqual(["exercise", "create", "fetch"]);
      expect(prepared.metadata?.maxLedgerEffectiveTime).toBe(timeBounds.max);
    }
  });
});
