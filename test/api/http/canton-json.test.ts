import { create, equals, toBinary, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import { anyPack, anyUnpack, DurationSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { CompletionStreamResponseSchema, file_com_daml_ledger_api_v2_command_completion_service } from "../../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import {
  file_com_daml_ledger_api_v2_command_service,
  SubmitAndWaitForTransactionRequestSchema,
  SubmitAndWaitForTransactionResponseSchema,
  SubmitAndWaitForTransactionTreeResponseSchema,
} from "../../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { CommandsSchema, file_com_daml_ledger_api_v2_commands } from "../../../gen/com/daml/ledger/api/v2/commands_pb.js";
import { CompletionSchema, file_com_daml_ledger_api_v2_completion } from "../../../gen/com/daml/ledger/api/v2/completion_pb.js";
import { CreatedEventSchema, file_com_daml_ledger_api_v2_event } from "../../../gen/com/daml/ledger/api/v2/event_pb.js";
import { file_com_daml_ledger_api_v2_reassignment } from "../../../gen/com/daml/ledger/api/v2/reassignment_pb.js";
import { file_com_daml_ledger_api_v2_state_service, GetActiveContractsResponseSchema, ParticipantPermission } from "../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { file_com_daml_ledger_api_v2_topology_transaction } from "../../../gen/com/daml/ledger/api/v2/topology_transaction_pb.js";
import {
  CumulativeFilterSchema,
  file_com_daml_ledger_api_v2_transaction_filter,
  TransactionShape,
} from "../../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { file_com_daml_ledger_api_v2_transaction, TransactionSchema } from "../../../gen/com/daml/ledger/api/v2/transaction_pb.js";
import { file_com_daml_ledger_api_v2_update_service, GetUpdatesResponseSchema, GetUpdateTreesResponseSchema } from "../../../gen/com/daml/ledger/api/v2/update_service_pb.js";
import { file_com_daml_ledger_api_v2_version_service, GetLedgerApiVersionResponseSchema } from "../../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import {
  file_com_daml_ledger_api_v2_admin_user_management_service,
  ListUserRightsResponseSchema,
} from "../../../gen/com/daml/ledger/api/v2/admin/user_management_service_pb.js";
import { AllocatePartyResponseSchema, file_com_daml_ledger_api_v2_admin_party_management_service } from "../../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import {
  type Identifier,
  IdentifierSchema,
  type Record as ProtoRecord,
  RecordSchema,
  type Value,
  ValueSchema,
} from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import {
  CantonJsonError,
  type DamlValueCodec,
  fromCantonJson,
  ONEOF_STYLES,
  protoRecordToDamlJson,
  protoValueToDamlJson,
  toCantonJson,
} from "../../../src/api/http/canton-json.js";

// ---------------------------------------------------------------------------------------------
// Helpers

const PKG = "a1b2c3d4e5f6";
const ALICE = "alice::1220aa";
const BOB = "bob::1220bb";
const SYNC = "global-domain::1220cc";
const CID = "00" + "ab".repeat(33);

const tid = (moduleName: string, entityName: string, packageId = PKG): Identifier =>
  create(IdentifierSchema, { packageId, moduleName, entityName });

const V = {
  text: (s: string): Value => create(ValueSchema, { sum: { case: "text", value: s } }),
  party: (s: string): Value => create(ValueSchema, { sum: { case: "party", value: s } }),
  cid: (s: string): Value => create(ValueSchema, { sum: { case: "contractId", value: s } }),
  int64: (n: bigint): Value => create(ValueSchema, { sum: { case: "int64", value: n } }),
  numeric: (s: string): Value => create(ValueSchema, { sum: { case: "numeric", value: s } }),
  bool: (b: boolean): Value => create(ValueSchema, { sum: { case: "bool", value: b } }),
  unit: (): Value => create(ValueSchema, { sum: { case: "unit", value: {} } }),
  date: (days: number): Value => create(ValueSchema, { sum: { case: "date", value: days } }),
  time: (micros: bigint): Value => create(ValueSchema, { sum: { case: "timestamp", value: micros } }),
  none: (): Value => create(ValueSchema, { sum: { case: "optional", value: {} } }),
  some: (v: Value): Value => create(ValueSchema, { sum: { case: "optional", value: { value: v } } }),
  list: (...elements: Value[]): Value => create(ValueSchema, { sum: { case: "list", value: { elements } } }),
  textMap: (entries: [string, Value][]): Value =>
    create(ValueSchema, { sum: { case: "textMap", value: { entries: entries.map(([key, value]) => ({ key, value })) } } }),
  genMap: (entries: [Value, Value][]): Value =>
    create(ValueSchema, { sum: { case: "genMap", value: { entries: entries.map(([key, value]) => ({ key, value })) } } }),
  variant: (constructor: string, value: Value): Value => create(ValueSchema, { sum: { case: "variant", value: { constructor$: constructor, value } } }),
  enumV: (constructor: string): Value => create(ValueSchema, { sum: { case: "enum", value: { constructor$: constructor } } }),
  record: (fields: [string, Value][]): Value => create(ValueSchema, { sum: { case: "record", value: rec(fields) } }),
};
function rec(fields: [string, Value][]): ProtoRecord {
  return create(RecordSchema, { fields: fields.map(([label, value]) => ({ label, value })) });
}

/** Fake Daml codec: JSON objects -> labelled records, strings -> Text; records its calls; rejects anything else. */
function fakeDaml() {
  const calls: { field: string; message: string; parent: { [k: string]: unknown } }[] = [];
  const toValue = (j: unknown, path: string): Value => {
    if (typeof j === "string") return V.text(j);
    if (typeof j === "object" && j !== null && !Array.isArray(j)) return create(ValueSchema, { sum: { case: "record", value: toRecord(j, path) } });
    if (typeof j === "number") throw new CantonJsonError(path, "expected a text or a record");
    throw new RangeError(`unsupported Daml JSON at ${path}`);
  };
  const toRecord = (j: object, path: string): ProtoRecord =>
    rec(Object.entries(j).map(([k, x]) => [k, toValue(x, path ? `${path}.${k}` : k)]));
  const codec: DamlValueCodec = {
    decode(json, ctx) {
      calls.push({ field: ctx.field.name, message: ctx.message.typeName, parent: ctx.parent });
      // objects come back as Records (the codec wraps them for Value fields), strings as Values
      if (typeof json === "object" && json !== null && !Array.isArray(json)) return toRecord(json, "");
      return toValue(json, "");
    },
  };
  return { codec, calls };
}

const noDaml: DamlValueCodec = {
  decode() {
    throw new Error("no Daml values expected here");
  },
};

const ts = (iso: string) => {
  const ms = Date.parse(iso);
  return create(TimestampSchema, { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 });
};

function errorOf(f: () => unknown): CantonJsonError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CantonJsonError);
    return e as CantonJsonError;
  }
  throw new Error("expected a CantonJsonError");
}

// ---------------------------------------------------------------------------------------------

describe("JsCommands", () => {
  const commandsJson = {
    commands: [
      { CreateCommand: { templateId: "#splice-wallet:Splice.Wallet.TransferOffer:TransferOffer", createArguments: { sender: ALICE, receiver: BOB } } },
      {
        ExerciseCommand: {
          templateId: `${PKG}:Splice.Amulet:Amulet`,
          contractId: CID,
          choice: "Amulet_Transfer",
          choiceArgument: { newOwner: BOB },
        },
      },
      {
        ExerciseByKeyCommand: {
          templateId: `${PKG}:Main:Keyed`,
          contractKey: { owner: ALICE },
          choice: "Keyed_Touch",
          choiceArgument: {},
        },
      },
      {
        CreateAndExerciseCommand: {
          templateId: "#pkg:Main:Iou",
          createArguments: { issuer: ALICE, note: { text: "hi" } },
          choice: "Iou_Transfer",
          choiceArgument: { newOwner: BOB },
        },
      },
    ],
    commandId: "cmd-1",
    actAs: [ALICE],
    userId: "wallet-user",
    readAs: [BOB],
    workflowId: "wf-1",
    deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 30, nanos: 500, unknownFields: { fields: {} } } } },
    minLedgerTimeAbs: "2025-03-04T05:06:07.123456Z",
    minLedgerTimeRel: { seconds: 5, nanos: 0, unknownFields: { fields: {} } },
    submissionId: "sub-1",
    disclosedContracts: [{ templateId: `${PKG}:Splice.AmuletRules:AmuletRules`, contractId: CID, createdEventBlob: "AQID", synchronizerId: SYNC }],
    synchronizerId: SYNC,
    packageIdSelectionPreference: [PKG],
    prefetchContractKeys: [{ templateId: `${PKG}:Main:Keyed`, contractKey: { owner: BOB } }],
    tapsMaxPasses: 3,
  };

  it("decodes all four command variants and prints them back identically", () => {
    const { codec, calls } = fakeDaml();
    const cmds = fromCantonJson(CommandsSchema, commandsJson, codec);

    expect(cmds.commands.map((c) => c.command.case)).toEqual(["create", "exercise", "exerciseByKey", "createAndExercise"]);
    const create0 = cmds.commands[0].command;
    if (create0.case !== "create") throw new Error("unreachable");
    expect(create0.value.templateId).toEqual(tid("Splice.Wallet.TransferOffer", "TransferOffer", "#splice-wallet"));
    expect(create0.value.createArguments?.fields.map((f) => [f.label, f.value?.sum.value])).toEqual([
      ["sender", ALICE],
      ["receiver", BOB],
    ]);
    const ex = cmds.commands[1].command;
    if (ex.case !== "exercise") throw new Error("unreachable");
    expect(ex.value.contractId).toBe(CID);
    expect(ex.value.choice).toBe("Amulet_Transfer");
    // a Value field receives the record wrapped in a Value
    expect(ex.value.choiceArgument?.sum.case).toBe("record");

    expect(cmds.deduplicationPeriod).toEqual({ case: "deduplicationDuration", value: create(DurationSchema, { seconds: 30n, nanos: 500 }) });
    expect(cmds.minLedgerTimeAbs).toEqual(create(TimestampSchema, { seconds: 1741064767n, nanos: 123_456_000 }));
    expect(cmds.disclosedContracts[0].createdEventBlob).toEqual(new Uint8Array([1, 2, 3]));
    expect(cmds.tapsMaxPasses).toBe(3);

    // the Daml codec saw each Daml field with its enclosing command object
    expect(calls.map((c) => `${c.message.split(".").pop()}.${c.field}`)).toEqual([
      "CreateCommand.create_arguments",
      "ExerciseCommand.choice_argument",
      "ExerciseByKeyCommand.contract_key",
      "ExerciseByKeyCommand.choice_argument",
      "CreateAndExerciseCommand.create_arguments",
      "CreateAndExerciseCommand.choice_argument",
      "PrefetchContractKey.contract_key",
    ]);
    expect(calls[1].parent).toBe(commandsJson.commands[1].ExerciseCommand);
    expect(calls[1].parent.choice).toBe("Amulet_Transfer");

    expect(toCantonJson(CommandsSchema, cmds)).toEqual(commandsJson);
    expect(JSON.parse(JSON.stringify(toCantonJson(CommandsSchema, cmds)))).toEqual(commandsJson);
  });

  it("encodes the deduplication period variants", () => {
    const { codec } = fakeDaml();
    const base = { commands: [], commandId: "c", actAs: [ALICE] };
    const offset = fromCantonJson(CommandsSchema, { ...base, deduplicationPeriod: { DeduplicationOffset: { value: 12 } } }, codec);
    expect(offset.deduplicationPeriod).toEqual({ case: "deduplicationOffset", value: 12n });
    expect((toCantonJson(CommandsSchema, offset) as { deduplicationPeriod: unknown }).deduplicationPeriod).toEqual({ DeduplicationOffset: { value: 12 } });

    // numeric strings are accepted for int64
    const offsetStr = fromCantonJson(CommandsSchema, { ...base, deduplicationPeriod: { DeduplicationOffset: { value: "9007199254740993" } } }, codec);
    expect(offsetStr.deduplicationPeriod).toEqual({ case: "deduplicationOffset", value: 9007199254740993n });

    const duration = fromCantonJson(CommandsSchema, { ...base, deduplicationPeriod: { DeduplicationDuration: { value: { seconds: "60", nanos: 0 } } } }, codec);
    expect(duration.deduplicationPeriod).toEqual({ case: "deduplicationDuration", value: create(DurationSchema, { seconds: 60n }) });
    expect((toCantonJson(CommandsSchema, duration) as { deduplicationPeriod: unknown }).deduplicationPeriod).toEqual({
      DeduplicationDuration: { value: { seconds: 60, nanos: 0, unknownFields: { fields: {} } } },
    });

    for (const dedup of [{ Empty: {} }, null, undefined]) {
      const cmds = fromCantonJson(CommandsSchema, { ...base, deduplicationPeriod: dedup }, codec);
      expect(cmds.deduplicationPeriod.case).toBeUndefined();
      const out = toCantonJson(CommandsSchema, cmds) as { [k: string]: unknown };
      expect(out.deduplicationPeriod).toEqual({ Empty: {} });
      // proto3 scalars and repeated fields are printed with their defaults; unset messages/optionals are not
      expect(out).toEqual({
        commands: [],
        commandId: "c",
        actAs: [ALICE],
        userId: "",
        readAs: [],
        workflowId: "",
        deduplicationPeriod: { Empty: {} },
        submissionId: "",
        disclosedContracts: [],
        synchronizerId: "",
        packageIdSelectionPreference: [],
        prefetchContractKeys: [],
      });
    }
  });

  it("decodes a JsSubmitAndWaitForTransactionRequest with a transaction format", () => {
    const { codec } = fakeDaml();
    const json = {
      commands: {
        commands: [{ ExerciseCommand: { templateId: "#splice-wallet:Splice.Wallet.TransferOffer:TransferOffer", contractId: CID, choice: "TransferOffer_Accept", choiceArgument: {} } }],
        commandId: "c-1",
        actAs: [ALICE],
      },
      transactionFormat: {
        eventFormat: {
          filtersByParty: {
            [ALICE]: {
              cumulative: [
                { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } },
                { identifierFilter: { TemplateFilter: { value: { templateId: `${PKG}:Splice.Amulet:Amulet`, includeCreatedEventBlob: true } } } },
                { identifierFilter: { InterfaceFilter: { value: { interfaceId: `${PKG}:Splice.Api.Token.HoldingV1:Holding`, includeInterfaceView: true } } } },
              ],
            },
          },
          verbose: true,
        },
        transactionShape: "TRANSACTION_SHAPE_ACS_DELTA",
      },
    };
    const req = fromCantonJson(SubmitAndWaitForTransactionRequestSchema, json, codec);
    expect(req.transactionFormat?.transactionShape).toBe(TransactionShape.ACS_DELTA);
    const cumulative = req.transactionFormat?.eventFormat?.filtersByParty[ALICE].cumulative ?? [];
    expect(cumulative.map((c) => c.identifierFilter.case)).toEqual(["wildcardFilter", "templateFilter", "interfaceFilter"]);
    const tf = cumulative[1].identifierFilter;
    expect(tf.case === "templateFilter" && tf.value.templateId).toEqual(tid("Splice.Amulet", "Amulet"));

    const out = toCantonJson(SubmitAndWaitForTransactionRequestSchema, req) as { transactionFormat: unknown };
    expect(out.transactionFormat).toEqual({
      eventFormat: {
        filtersByParty: {
          [ALICE]: {
            cumulative: [
              { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } },
              { identifierFilter: { TemplateFilter: { value: { templateId: `${PKG}:Splice.Amulet:Amulet`, includeCreatedEventBlob: true } } } },
              {
                identifierFilter: {
                  InterfaceFilter: { value: { interfaceId: `${PKG}:Splice.Api.Token.HoldingV1:Holding`, includeInterfaceView: true, includeCreatedEventBlob: false } },
                },
              },
            ],
          },
        },
        verbose: true,
      },
      transactionShape: "TRANSACTION_SHAPE_ACS_DELTA",
    });

    // enum numbers are accepted too; an unset identifier filter prints as Empty
    const byNumber = fromCantonJson(SubmitAndWaitForTransactionRequestSchema, { ...json, transactionFormat: { transactionShape: 2 } }, codec);
    expect(byNumber.transactionFormat?.transactionShape).toBe(TransactionShape.LEDGER_EFFECTS);
    expect(toCantonJson(CumulativeFilterSchema, create(CumulativeFilterSchema))).toEqual({ identifierFilter: { Empty: {} } });
    expect(fromCantonJson(CumulativeFilterSchema, { identifierFilter: { Empty: {} } }, noDaml).identifierFilter.case).toBeUndefined();
  });
});

describe("JsSubmitAndWaitForTransactionResponse", () => {
  const created = create(CreatedEventSchema, {
    offset: 42n,
    nodeId: 0,
    contractId: CID,
    templateId: tid("Splice.Amulet", "Amulet"),
    createArguments: rec([
      ["owner", V.party(ALICE)],
      ["amount", V.record([["initialAmount", V.numeric("100.0000000000")], ["round", V.int64(17n)]])],
      ["lock", V.none()],
      ["expiresAt", V.some(V.time(1_700_000_000_123_456n))],
      ["nested", V.some(V.some(V.text("x")))],
      ["nestedNone", V.some(V.none())],
      ["day", V.date(19723)],
      ["flags", V.list(V.bool(true), V.bool(false))],
      ["meta", V.textMap([["k", V.text("v")]])],
      ["weights", V.genMap([[V.party(BOB), V.int64(-5n)]])],
      ["status", V.variant("Locked", V.record([["until", V.time(0n)]]))],
      ["color", V.enumV("Red")],
      ["dummy", V.unit()],
      ["ref", V.cid(CID)],
    ]),
    witnessParties: [ALICE],
    signatories: [ALICE, "dso::1220dd"],
    observers: [],
    createdAt: ts("2025-01-01T00:00:00Z"),
    packageName: "splice-amulet",
    acsDelta: true,
    representativePackageId: PKG,
  });
  const response = create(SubmitAndWaitForTransactionResponseSchema, {
    transaction: {
      updateId: "1220upd",
      commandId: "cmd-1",
      workflowId: "",
      effectiveAt: create(TimestampSchema, { seconds: 1735689600n, nanos: 1000 }),
      events: [
        { event: { case: "created", value: created } },
        {
          event: {
            case: "archived",
            value: {
              offset: 42n,
              nodeId: 1,
              contractId: CID,
              templateId: tid("Splice.Amulet", "Amulet"),
              witnessParties: [ALICE],
              packageName: "splice-amulet",
              implementedInterfaces: [tid("Splice.Api.Token.HoldingV1", "Holding")],
            },
          },
        },
        {
          event: {
            case: "exercised",
            value: {
              offset: 42n,
              nodeId: 2,
              contractId: CID,
              templateId: tid("Splice.AmuletRules", "AmuletRules"),
              interfaceId: tid("Splice.Api.Token.TransferInstructionV1", "TransferFactory"),
              choice: "TransferFactory_Transfer",
              choiceArgument: V.record([["amount", V.numeric("1.5")]]),
              actingParties: [ALICE],
              consuming: false,
              witnessParties: [ALICE],
              lastDescendantNodeId: 7,
              exerciseResult: V.some(V.int64(9007199254740993n)),
              packageName: "splice-amulet",
              implementedInterfaces: [],
              acsDelta: false,
            },
          },
        },
      ],
      offset: 42n,
      synchronizerId: SYNC,
      traceContext: { traceparent: "00-abc-def-01" },
      recordTime: ts("2025-01-01T00:00:01.5Z"),
    },
  });

  it("prints the exact Canton JSON", () => {
    expect(toCantonJson(SubmitAndWaitForTransactionResponseSchema, response)).toEqual({
      transaction: {
        updateId: "1220upd",
        commandId: "cmd-1",
        workflowId: "",
        effectiveAt: "2025-01-01T00:00:00.000001Z",
        events: [
          {
            CreatedEvent: {
              offset: 42,
              nodeId: 0,
              contractId: CID,
              templateId: `${PKG}:Splice.Amulet:Amulet`,
              createArgument: {
                owner: ALICE,
                amount: { initialAmount: "100.0000000000", round: "17" },
                lock: null,
                expiresAt: "2023-11-14T22:13:20.123456Z",
                nested: ["x"],
                nestedNone: [],
                day: "2024-01-01",
                flags: [true, false],
                meta: { k: "v" },
                weights: [[BOB, "-5"]],
                status: { tag: "Locked", value: { until: "1970-01-01T00:00:00Z" } },
                color: "Red",
                dummy: {},
                ref: CID,
              },
              createdEventBlob: "",
              interfaceViews: [],
              witnessParties: [ALICE],
              signatories: [ALICE, "dso::1220dd"],
              observers: [],
              createdAt: "2025-01-01T00:00:00Z",
              packageName: "splice-amulet",
              acsDelta: true,
              representativePackageId: PKG,
            },
          },
          {
            ArchivedEvent: {
              offset: 42,
              nodeId: 1,
              contractId: CID,
              templateId: `${PKG}:Splice.Amulet:Amulet`,
              witnessParties: [ALICE],
              packageName: "splice-amulet",
              implementedInterfaces: [`${PKG}:Splice.Api.Token.HoldingV1:Holding`],
            },
          },
          {
            ExercisedEvent: {
              offset: 42,
              nodeId: 2,
              contractId: CID,
              templateId: `${PKG}:Splice.AmuletRules:AmuletRules`,
              interfaceId: `${PKG}:Splice.Api.Token.TransferInstructionV1:TransferFactory`,
              choice: "TransferFactory_Transfer",
              choiceArgument: { amount: "1.5" },
              actingParties: [ALICE],
              consuming: false,
              witnessParties: [ALICE],
              lastDescendantNodeId: 7,
              exerciseResult: "9007199254740993",
              packageName: "splice-amulet",
              implementedInterfaces: [],
              acsDelta: false,
            },
          },
        ],
        offset: 42,
        synchronizerId: SYNC,
        traceContext: { traceparent: "00-abc-def-01" },
        recordTime: "2025-01-01T00:00:01.500Z",
      },
    });
  });

  it("reads the response back (events, ids, offsets, times) with a Daml codec", () => {
    const json = JSON.parse(JSON.stringify(toCantonJson(SubmitAndWaitForTransactionResponseSchema, response)));
    const { codec, calls } = fakeDaml();
    // drop the Daml payloads the fake codec cannot rebuild (typed values need the real codec)
    json.transaction.events[0].CreatedEvent.createArgument = { owner: ALICE };
    json.transaction.events[2].ExercisedEvent.choiceArgument = { amount: "1.5" };
    json.transaction.events[2].ExercisedEvent.exerciseResult = "r";
    const back = fromCantonJson(SubmitAndWaitForTransactionResponseSchema, json, codec);
    const tx = back.transaction!;
    expect(tx.offset).toBe(42n);
    expect(tx.effectiveAt).toEqual(response.transaction!.effectiveAt);
    expect(tx.recordTime).toEqual(response.transaction!.recordTime);
    expect(tx.traceContext?.traceparent).toBe("00-abc-def-01");
    expect(tx.traceContext?.tracestate).toBeUndefined();
    expect(tx.events.map((e) => e.event.case)).toEqual(["created", "archived", "exercised"]);
    expect(equals(TransactionSchema, { ...tx, events: tx.events.slice(1, 2) }, { ...response.transaction!, events: response.transaction!.events.slice(1, 2) })).toBe(true);
    const ex = tx.events[2].event;
    expect(ex.case === "exercised" && ex.value.interfaceId).toEqual(tid("Splice.Api.Token.TransferInstructionV1", "TransferFactory"));
    expect(calls.map((c) => c.field)).toEqual(["create_arguments", "choice_argument", "exercise_result"]);
  });

  it("renames the transaction of the tree response to transactionTree and wraps tree events in value", () => {
    const tree = create(SubmitAndWaitForTransactionTreeResponseSchema, {
      transaction: {
        updateId: "u",
        offset: 3n,
        eventsById: { 0: { kind: { case: "created", value: create(CreatedEventSchema, { offset: 3n, contractId: CID, templateId: tid("M", "T"), createArguments: rec([]) }) } } },
        recordTime: ts("2025-01-01T00:00:00Z"),
      },
    });
    const out = toCantonJson(SubmitAndWaitForTransactionTreeResponseSchema, tree) as { transactionTree: { eventsById: { [k: string]: unknown } } };
    expect(Object.keys(out)).toEqual(["transactionTree"]);
    expect(out.transactionTree.eventsById["0"]).toMatchObject({ CreatedTreeEvent: { value: { offset: 3, templateId: `${PKG}:M:T`, createArgument: {} } } });
    const back = fromCantonJson(SubmitAndWaitForTransactionTreeResponseSchema, out, fakeDaml().codec);
    expect(back.transaction?.eventsById[0].kind.case).toBe("created");
  });
});

describe("CompletionStreamResponse", () => {
  const errorInfo = create(ErrorInfoSchema, { reason: "R" });
  const completion = create(CompletionSchema, {
    commandId: "cmd-1",
    status: { code: 5, message: "CONTRACT_NOT_FOUND(11,abc): gone", details: [anyPack(ErrorInfoSchema, errorInfo)] },
    userId: "wallet-user",
    actAs: [ALICE],
    submissionId: "sub-1",
    deduplicationPeriod: { case: "deduplicationOffset", value: 7n },
    offset: 43n,
    synchronizerTime: { synchronizerId: SYNC, recordTime: ts("2025-01-01T00:00:00Z") },
  });
  const expectedJson = {
    completionResponse: {
      Completion: {
        value: {
          commandId: "cmd-1",
          status: {
            code: 5,
            message: "CONTRACT_NOT_FOUND(11,abc): gone",
            details: [{ typeUrl: "type.googleapis.com/google.rpc.ErrorInfo", value: "CgFS", unknownFields: { fields: {} } }],
          },
          updateId: "",
          userId: "wallet-user",
          actAs: [ALICE],
          submissionId: "sub-1",
          deduplicationPeriod: { DeduplicationOffset: { value: 7 } },
          offset: 43,
          synchronizerTime: { synchronizerId: SYNC, recordTime: "2025-01-01T00:00:00Z" },
          paidTrafficCost: 0,
        },
      },
    },
  };

  it("prints Completion with JsStatus and ProtoAny details, and reads it back", () => {
    const msg = create(CompletionStreamResponseSchema, { completionResponse: { case: "completion", value: completion } });
    const json = toCantonJson(CompletionStreamResponseSchema, msg);
    expect(Buffer.from(toBinary(ErrorInfoSchema, errorInfo)).toString("base64")).toBe("CgFS");
    expect(json).toEqual(expectedJson);

    const back = fromCantonJson(CompletionStreamResponseSchema, json, noDaml);
    expect(equals(CompletionStreamResponseSchema, back, msg)).toBe(true);
    const c = back.completionResponse;
    if (c.case !== "completion") throw new Error("unreachable");
    expect(anyUnpack(c.value.status!.details[0], ErrorInfoSchema)?.reason).toBe("R");
  });

  it("accepts ProtoAny with valueDecoded and without unknownFields", () => {
    const json = structuredClone(expectedJson) as typeof expectedJson;
    const detail = json.completionResponse.Completion.value.status.details[0] as { [k: string]: unknown };
    delete detail.unknownFields;
    detail.valueDecoded = "{\"reason\":\"R\"}";
    const back = fromCantonJson(CompletionStreamResponseSchema, json, noDaml);
    expect(back.completionResponse.case === "completion" && back.completionResponse.value.status?.details[0].value).toEqual(new Uint8Array([0x0a, 0x01, 0x52]));
  });

  it("prints OffsetCheckpoint and an unset response", () => {
    const cp = create(CompletionStreamResponseSchema, {
      completionResponse: { case: "offsetCheckpoint", value: { offset: 44n, synchronizerTimes: [{ synchronizerId: SYNC, recordTime: ts("2025-01-01T00:00:02Z") }] } },
    });
    const json = toCantonJson(CompletionStreamResponseSchema, cp);
    expect(json).toEqual({
      completionResponse: { OffsetCheckpoint: { value: { offset: 44, synchronizerTimes: [{ synchronizerId: SYNC, recordTime: "2025-01-01T00:00:02Z" }] } } },
    });
    expect(equals(CompletionStreamResponseSchema, fromCantonJson(CompletionStreamResponseSchema, json, noDaml), cp)).toBe(true);
    expect(toCantonJson(CompletionStreamResponseSchema, create(CompletionStreamResponseSchema))).toEqual({ completionResponse: { Empty: {} } });
  });
});

describe("updates, ACS, users, parties", () => {
  it("prints GetActiveContractsResponse with contractEntry.JsActiveContract (no value wrapper)", () => {
    const msg = create(GetActiveContractsResponseSchema, {
      workflowId: "",
      contractEntry: {
        case: "activeContract",
        value: {
          createdEvent: create(CreatedEventSchema, {
            offset: 10n,
            nodeId: 0,
            contractId: CID,
            templateId: tid("Splice.Amulet", "Amulet"),
            createArguments: rec([["owner", V.party(ALICE)]]),
            createdEventBlob: new Uint8Array([0xde, 0xad, 0xbe, 0xef]),
            witnessParties: [ALICE],
            signatories: [ALICE],
            createdAt: ts("2025-01-01T00:00:00Z"),
            packageName: "splice-amulet",
            representativePackageId: PKG,
            acsDelta: true,
          }),
          synchronizerId: SYNC,
          reassignmentCounter: 2n,
        },
      },
    });
    const json = toCantonJson(GetActiveContractsResponseSchema, msg);
    expect(json).toEqual({
      workflowId: "",
      contractEntry: {
        JsActiveContract: {
          createdEvent: {
            offset: 10,
            nodeId: 0,
            contractId: CID,
            templateId: `${PKG}:Splice.Amulet:Amulet`,
            createArgument: { owner: ALICE },
            createdEventBlob: "3q2+7w==",
            interfaceViews: [],
            witnessParties: [ALICE],
            signatories: [ALICE],
            observers: [],
            createdAt: "2025-01-01T00:00:00Z",
            packageName: "splice-amulet",
            acsDelta: true,
            representativePackageId: PKG,
          },
          synchronizerId: SYNC,
          reassignmentCounter: 2,
        },
      },
    });
    const { codec } = fakeDaml();
    const back = fromCantonJson(GetActiveContractsResponseSchema, json, codec);
    expect(back.contractEntry.case).toBe("activeContract");
    if (back.contractEntry.case !== "activeContract") throw new Error("unreachable");
    expect(back.contractEntry.value.reassignmentCounter).toBe(2n);
    expect(back.contractEntry.value.createdEvent?.createdEventBlob).toEqual(new Uint8Array([0xde, 0xad, 0xbe, 0xef]));

    expect(toCantonJson(GetActiveContractsResponseSchema, create(GetActiveContractsResponseSchema))).toEqual({ workflowId: "", contractEntry: { JsEmpty: {} } });
  });

  it("prints GetUpdatesResponse variants with value wrappers, reassignment events in both styles", () => {
    const cp = create(GetUpdatesResponseSchema, { update: { case: "offsetCheckpoint", value: { offset: 5n } } });
    expect(toCantonJson(GetUpdatesResponseSchema, cp)).toEqual({ update: { OffsetCheckpoint: { value: { offset: 5, synchronizerTimes: [] } } } });
    // no Empty variant in the OpenAPI Update schema: an unset update is omitted
    expect(toCantonJson(GetUpdatesResponseSchema, create(GetUpdatesResponseSchema))).toEqual({});

    const reassignment = create(GetUpdatesResponseSchema, {
      update: {
        case: "reassignment",
        value: {
          updateId: "u2",
          offset: 6n,
          recordTime: ts("2025-01-01T00:00:00Z"),
          synchronizerId: SYNC,
          events: [
            { event: { case: "unassigned", value: { unassignId: "r-1", contractId: CID, templateId: tid("M", "T"), source: "s", target: "t", reassignmentCounter: 1n, offset: 6n, nodeId: 0 } } },
            { event: { case: "assigned", value: { source: "s", target: "t", unassignId: "r-1", submitter: ALICE, reassignmentCounter: 1n } } },
          ],
        },
      },
    });
    const json = toCantonJson(GetUpdatesResponseSchema, reassignment) as { update: { Reassignment: { value: { events: unknown[] } } } };
    const events = json.update.Reassignment.value.events;
    expect(events[0]).toEqual({
      JsUnassignedEvent: {
        value: {
          reassignmentId: "r-1",
          contractId: CID,
          templateId: `${PKG}:M:T`,
          source: "s",
          target: "t",
          submitter: "",
          reassignmentCounter: 1,
          witnessParties: [],
          packageName: "",
          offset: 6,
          nodeId: 0,
        },
      },
    });
    expect(events[1]).toEqual({ JsAssignmentEvent: { source: "s", target: "t", reassignmentId: "r-1", submitter: ALICE, reassignmentCounter: 1 } });
    expect(equals(GetUpdatesResponseSchema, fromCantonJson(GetUpdatesResponseSchema, json, noDaml), reassignment)).toBe(true);
  });

  it("prints topology events with enum names and the Empty variant", () => {
    const msg = create(GetUpdatesResponseSchema, {
      update: {
        case: "topologyTransaction",
        value: {
          updateId: "t1",
          offset: 8n,
          synchronizerId: SYNC,
          recordTime: ts("2025-01-01T00:00:00Z"),
          events: [
            { event: { case: "participantAuthorizationAdded", value: { partyId: ALICE, participantId: "PAR::1220", participantPermission: ParticipantPermission.SUBMISSION } } },
            { event: { case: "participantAuthorizationRevoked", value: { partyId: BOB, participantId: "PAR::1220" } } },
            {},
          ],
        },
      },
    });
    const json = toCantonJson(GetUpdatesResponseSchema, msg) as { update: { TopologyTransaction: { value: { events: unknown[] } } } };
    expect(json.update.TopologyTransaction.value.events).toEqual([
      { event: { ParticipantAuthorizationAdded: { value: { partyId: ALICE, participantId: "PAR::1220", participantPermission: "PARTICIPANT_PERMISSION_SUBMISSION" } } } },
      { event: { ParticipantAuthorizationRevoked: { value: { partyId: BOB, participantId: "PAR::1220" } } } },
      { event: { Empty: {} } },
    ]);
    expect(equals(GetUpdatesResponseSchema, fromCantonJson(GetUpdatesResponseSchema, json, noDaml), msg)).toBe(true);
  });

  it("prints tree updates keyed by node id", () => {
    const msg = create(GetUpdateTreesResponseSchema, {
      update: { case: "transactionTree", value: { updateId: "u", offset: 1n, eventsById: { 4: { kind: { case: "exercised", value: { nodeId: 4, choice: "C", templateId: tid("M", "T") } } } } } },
    });
    const json = toCantonJson(GetUpdateTreesResponseSchema, msg) as { update: { TransactionTree: { value: { eventsById: { [k: string]: { ExercisedTreeEvent: { value: { choice: string } } } } } } } };
    expect(json.update.TransactionTree.value.eventsById["4"].ExercisedTreeEvent.value.choice).toBe("C");
    expect(equals(GetUpdateTreesResponseSchema, fromCantonJson(GetUpdateTreesResponseSchema, json, noDaml), msg)).toBe(true);
  });

  it("prints Right kinds", () => {
    const msg = create(ListUserRightsResponseSchema, {
      rights: [
        { kind: { case: "canActAs", value: { party: ALICE } } },
        { kind: { case: "canReadAs", value: { party: BOB } } },
        { kind: { case: "participantAdmin", value: {} } },
        { kind: { case: "identityProviderAdmin", value: {} } },
        { kind: { case: "canReadAsAnyParty", value: {} } },
        { kind: { case: "canExecuteAs", value: { party: ALICE } } },
        { kind: { case: "canExecuteAsAnyParty", value: {} } },
        {},
      ],
    });
    const json = toCantonJson(ListUserRightsResponseSchema, msg);
    expect(json).toEqual({
      rights: [
        { kind: { CanActAs: { value: { party: ALICE } } } },
        { kind: { CanReadAs: { value: { party: BOB } } } },
        { kind: { ParticipantAdmin: { value: {} } } },
        { kind: { IdentityProviderAdmin: { value: {} } } },
        { kind: { CanReadAsAnyParty: { value: {} } } },
        { kind: { CanExecuteAs: { value: { party: ALICE } } } },
        { kind: { CanExecuteAsAnyParty: { value: {} } } },
        { kind: { Empty: {} } },
      ],
    });
    expect(equals(ListUserRightsResponseSchema, fromCantonJson(ListUserRightsResponseSchema, json, noDaml), msg)).toBe(true);
  });

  it("prints PartyDetails with ObjectMeta annotations as an object", () => {
    const msg = create(AllocatePartyResponseSchema, {
      partyDetails: { party: ALICE, isLocal: true, localMetadata: { resourceVersion: "0", annotations: { "wallet/name": "Alice" } }, identityProviderId: "" },
    });
    const json = toCantonJson(AllocatePartyResponseSchema, msg);
    expect(json).toEqual({
      partyDetails: { party: ALICE, isLocal: true, localMetadata: { resourceVersion: "0", annotations: { "wallet/name": "Alice" } }, identityProviderId: "" },
    });
    expect(equals(AllocatePartyResponseSchema, fromCantonJson(AllocatePartyResponseSchema, json, noDaml), msg)).toBe(true);
  });

  it("prints Duration the way a 3.4 participant does (GET /v2/version)", () => {
    const msg = create(GetLedgerApiVersionResponseSchema, {
      version: "3.4.12",
      features: { offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75n, nanos: 0 } } },
    });
    expect(toCantonJson(GetLedgerApiVersionResponseSchema, msg)).toEqual({
      version: "3.4.12",
      features: { offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } } } },
    });
  });
});

describe("input errors", () => {
  const { codec } = fakeDaml();
  const req = (commands: unknown) => ({ commands: { commands, commandId: "c", actAs: [ALICE] } });

  it("reports unknown fields with their path", () => {
    const e = errorOf(() => fromCantonJson(SubmitAndWaitForTransactionRequestSchema, req([{ CreateCommand: { templateId: "p:M:T", createArguments: {}, extra: 1 } }]), codec));
    expect(e.path).toBe("commands.commands[0].CreateCommand.extra");
    expect(e.problem).toBe("unknown field");
    expect(e.message).toBe("commands.commands[0].CreateCommand.extra: unknown field");

    expect(errorOf(() => fromCantonJson(CommandsSchema, { commandId: "c", act_as: [] }, codec)).path).toBe("act_as");
    // oneof field names are not keys of their own
    expect(errorOf(() => fromCantonJson(CommandsSchema, { deduplicationOffset: 3 }, codec)).path).toBe("deduplicationOffset");
    // the renamed key is the only accepted spelling
    expect(errorOf(() => fromCantonJson(CreatedEventSchema, { createArguments: {} }, codec)).path).toBe("createArguments");
  });

  it("refuses two members of one inline oneof, and takes one in every message of a list", () => {
    const both = { CreateCommand: { templateId: "p:M:T", createArguments: {} }, ExerciseCommand: { templateId: "p:M:T", contractId: "00", choice: "C", choiceArgument: {} } };
    const e = errorOf(() => fromCantonJson(SubmitAndWaitForTransactionRequestSchema, req([both]), codec));
    expect(e.path).toBe("commands.commands[0].ExerciseCommand");
    expect(e.problem).toMatch(/^only one of .*CreateCommand.* may be given \(also got CreateCommand\)$/);
    // Each message tracks its own: one member in each of two commands is fine.
    const one = { CreateCommand: { templateId: "p:M:T", createArguments: {} } };
    const ok = fromCantonJson(SubmitAndWaitForTransactionRequestSchema, req([one, one]), codec) as { commands?: { commands: { command: { case: string } }[] } };
    expect(ok.commands?.commands.map((c) => c.command.case)).toEqual(["create", "create"]);
  });

  it("reports wrong JSON types", () => {
    let e = errorOf(() => fromCantonJson(SubmitAndWaitForTransactionRequestSchema, req([{ CreateCommand: { templateId: 42, createArguments: {} } }]), codec));
    expect(e.path).toBe("commands.commands[0].CreateCommand.templateId");
    expect(e.problem).toMatch(/expected an identifier string.*got number 42/);

    e = errorOf(() => fromCantonJson(CommandsSchema, { commandId: 5 }, codec));
    expect([e.path, e.problem]).toEqual(["commandId", "expected a string, got number 5"]);
    e = errorOf(() => fromCantonJson(CommandsSchema, { actAs: ALICE }, codec));
    expect([e.path, e.problem]).toEqual(["actAs", `expected an array, got the string "${ALICE}"`]);
    e = errorOf(() => fromCantonJson(CommandsSchema, { actAs: [ALICE, null] }, codec));
    expect(e.path).toBe("actAs[1]");
    e = errorOf(() => fromCantonJson(CommandsSchema, { commands: {} }, codec));
    expect(e.path).toBe("commands");
    e = errorOf(() => fromCantonJson(CommandsSchema, [], codec));
    expect([e.path, e.message]).toEqual(["", "(root): expected an object, got an array"]);
    e = errorOf(() => fromCantonJson(CommandsSchema, { tapsMaxPasses: 1.5 }, codec));
    expect(e.path).toBe("tapsMaxPasses");
    e = errorOf(() => fromCantonJson(CommandsSchema, { tapsMaxPasses: -1 }, codec));
    expect(e.problem).toMatch(/out of range for uint32/);
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { DeduplicationOffset: { value: true } } }, codec));
    expect(e.path).toBe("deduplicationPeriod.DeduplicationOffset.value");
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { DeduplicationOffset: { value: 2 ** 60 } } }, codec));
    expect(e.problem).toMatch(/beyond 2\^53/);
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { DeduplicationOffset: { value: "9223372036854775808" } } }, codec));
    expect(e.problem).toMatch(/out of range for int64/);
    e = errorOf(() => fromCantonJson(CommandsSchema, { minLedgerTimeAbs: "2025-02-30T00:00:00Z" }, codec));
    expect(e.path).toBe("minLedgerTimeAbs");
    e = errorOf(() => fromCantonJson(CommandsSchema, { minLedgerTimeAbs: 1735689600 }, codec));
    expect(e.problem).toMatch(/ISO-8601/);
    e = errorOf(() => fromCantonJson(CommandsSchema, { minLedgerTimeRel: { seconds: 1, nanos: 0, millis: 3 } }, codec));
    expect(e.path).toBe("minLedgerTimeRel.millis");
    e = errorOf(() => fromCantonJson(CommandsSchema, { disclosedContracts: [{ createdEventBlob: "not base64!" }] }, codec));
    expect([e.path, e.problem]).toEqual(["disclosedContracts[0].createdEventBlob", "invalid base64"]);
    e = errorOf(() => fromCantonJson(CommandsSchema, { commands: [{ CreateCommand: { templateId: "Main:T" } }] }, codec));
    expect(e.path).toBe("commands[0].CreateCommand.templateId");
  });

  it("reports bad enums and bad oneof wrappers", () => {
    let e = errorOf(() => fromCantonJson(SubmitAndWaitForTransactionRequestSchema, { transactionFormat: { transactionShape: "ACS_DELTA" } }, codec));
    expect(e.path).toBe("transactionFormat.transactionShape");
    expect(e.problem).toMatch(/unknown TransactionShape "ACS_DELTA"; expected one of TRANSACTION_SHAPE_UNSPECIFIED/);
    e = errorOf(() => fromCantonJson(SubmitAndWaitForTransactionRequestSchema, { transactionFormat: { transactionShape: 9 } }, codec));
    expect(e.problem).toBe("unknown TransactionShape number 9");

    // two command variants in one Command
    e = errorOf(() => fromCantonJson(CommandsSchema, { commands: [{ CreateCommand: { templateId: "p:M:T" }, ExerciseCommand: { templateId: "p:M:T" } }] }, codec));
    expect(e.path).toBe("commands[0].ExerciseCommand");
    expect(e.problem).toMatch(/only one of CreateCommand, ExerciseCommand/);
    // wrong variant name / missing value wrapper / two variants
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { DeduplicationTime: { value: 1 } } }, codec));
    expect(e.path).toBe("deduplicationPeriod.DeduplicationTime");
    expect(e.problem).toMatch(/unknown variant; expected one of DeduplicationDuration, DeduplicationOffset, Empty/);
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { DeduplicationOffset: 12 } }, codec));
    expect([e.path, e.problem]).toEqual(["deduplicationPeriod.DeduplicationOffset", "expected an object, got number 12"]);
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { DeduplicationOffset: { value: 1 }, Empty: {} } }, codec));
    expect(e.problem).toMatch(/expected exactly one of/);
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { Empty: { x: 1 } } }, codec));
    expect([e.path, e.problem]).toEqual(["deduplicationPeriod.Empty.x", "unknown field"]);
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { DeduplicationOffset: { value: 1, offset: 2 } } }, codec));
    expect(e.path).toBe("deduplicationPeriod.DeduplicationOffset.offset");
    e = errorOf(() => fromCantonJson(CommandsSchema, { deduplicationPeriod: { DeduplicationDuration: { seconds: 1 } } }, codec));
    expect(e.path).toBe("deduplicationPeriod.DeduplicationDuration.seconds");
    e = errorOf(() => fromCantonJson(ListUserRightsResponseSchema, { rights: [{ kind: { CanActAs: { party: ALICE } } }] }, noDaml));
    expect(e.path).toBe("rights[0].kind.CanActAs.party");
    e = errorOf(() => fromCantonJson(GetActiveContractsResponseSchema, { contractEntry: { ActiveContract: {} } }, noDaml));
    expect(e.path).toBe("contractEntry.ActiveContract");
  });

  it("re-roots the Daml codec's shape errors at the field and lets its other errors through", () => {
    const e = errorOf(() =>
      fromCantonJson(SubmitAndWaitForTransactionRequestSchema, req([{ CreateCommand: { templateId: "p:M:T", createArguments: { amount: 5 } } }]), codec),
    );
    expect(e.path).toBe("commands.commands[0].CreateCommand.createArguments.amount");
    expect(e.problem).toBe("expected a text or a record");
    expect((e.cause as CantonJsonError).path).toBe("amount");
    // e.g. a ledger error (unknown template) must reach the caller as is, not as a shape error
    expect(() =>
      fromCantonJson(SubmitAndWaitForTransactionRequestSchema, req([{ CreateCommand: { templateId: "p:M:T", createArguments: { flag: true } } }]), codec),
    ).toThrow(RangeError);
  });

  it("accepts null as unset", () => {
    const cmds = fromCantonJson(CommandsSchema, { commandId: "c", workflowId: null, deduplicationPeriod: null, minLedgerTimeAbs: null, readAs: null, tapsMaxPasses: null }, codec);
    expect(cmds.workflowId).toBe("");
    expect(cmds.readAs).toEqual([]);
    expect(cmds.minLedgerTimeAbs).toBeUndefined();
    expect(cmds.tapsMaxPasses).toBeUndefined();
  });
});

describe("Daml-LF JSON printer", () => {
  it("prints every value kind", () => {
    expect(protoValueToDamlJson(V.int64(-9223372036854775808n))).toBe("-9223372036854775808");
    expect(protoValueToDamlJson(V.numeric("0.0000000001"))).toBe("0.0000000001");
    expect(protoValueToDamlJson(V.date(0))).toBe("1970-01-01");
    expect(protoValueToDamlJson(V.date(-719162))).toBe("0001-01-01");
    expect(protoValueToDamlJson(V.date(2932896))).toBe("9999-12-31");
    expect(protoValueToDamlJson(V.time(-1n))).toBe("1969-12-31T23:59:59.999999Z");
    expect(protoValueToDamlJson(V.time(1_500_000n))).toBe("1970-01-01T00:00:01.500Z");
    expect(protoValueToDamlJson(V.time(253402300799999999n))).toBe("9999-12-31T23:59:59.999999Z");
    expect(protoValueToDamlJson(V.none())).toBeNull();
    expect(protoValueToDamlJson(V.some(V.text("a")))).toBe("a");
    expect(protoValueToDamlJson(V.some(V.none()))).toEqual([]);
    expect(protoValueToDamlJson(V.some(V.some(V.none())))).toEqual([[]]);
    expect(protoValueToDamlJson(V.some(V.some(V.some(V.int64(1n)))))).toEqual([["1"]]);
    expect(protoValueToDamlJson(V.list(V.some(V.text("a")), V.none()))).toEqual(["a", null]);
    expect(protoValueToDamlJson(V.variant("Some", V.unit()))).toEqual({ tag: "Some", value: {} });
    expect(protoValueToDamlJson(V.textMap([["__proto__", V.text("x")]]))).toEqual(JSON.parse('{"__proto__":"x"}'));
    expect(JSON.stringify(protoValueToDamlJson(V.textMap([["__proto__", V.text("x")]])))).toBe('{"__proto__":"x"}');
    expect(protoRecordToDamlJson(create(RecordSchema, { fields: [{ value: V.text("a") }, { value: V.bool(true) }] }))).toEqual(["a", true]);
    expect(protoRecordToDamlJson(rec([]))).toEqual({});
  });

  it("prints protobuf timestamps like java.time.Instant", () => {
    const iso = (seconds: bigint, nanos: number) =>
      toCantonJson(SubmitAndWaitForTransactionResponseSchema, create(SubmitAndWaitForTransactionResponseSchema, { transaction: { effectiveAt: { seconds, nanos } } }));
    const at = (seconds: bigint, nanos: number) => (iso(seconds, nanos) as { transaction: { effectiveAt: string } }).transaction.effectiveAt;
    expect(at(0n, 0)).toBe("1970-01-01T00:00:00Z");
    expect(at(0n, 120_000_000)).toBe("1970-01-01T00:00:00.120Z");
    expect(at(0n, 123_400)).toBe("1970-01-01T00:00:00.000123400Z");
    expect(at(0n, 123_000)).toBe("1970-01-01T00:00:00.000123Z");
    expect(at(-1n, 0)).toBe("1969-12-31T23:59:59Z");
    const back = fromCantonJson(SubmitAndWaitForTransactionResponseSchema, { transaction: { effectiveAt: "2025-01-01T02:00:00.000000001+02:00" } }, noDaml);
    expect(back.transaction?.effectiveAt).toEqual(create(TimestampSchema, { seconds: 1735689600n, nanos: 1 }));
  });
});

describe("tables", () => {
  const files: DescFile[] = [
    file_com_daml_ledger_api_v2_commands,
    file_com_daml_ledger_api_v2_command_service,
    file_com_daml_ledger_api_v2_command_completion_service,
    file_com_daml_ledger_api_v2_completion,
    file_com_daml_ledger_api_v2_event,
    file_com_daml_ledger_api_v2_transaction,
    file_com_daml_ledger_api_v2_transaction_filter,
    file_com_daml_ledger_api_v2_reassignment,
    file_com_daml_ledger_api_v2_topology_transaction,
    file_com_daml_ledger_api_v2_update_service,
    file_com_daml_ledger_api_v2_state_service,
    file_com_daml_ledger_api_v2_version_service,
    file_com_daml_ledger_api_v2_admin_user_management_service,
    file_com_daml_ledger_api_v2_admin_party_management_service,
  ];
  const all = (ms: DescMessage[]): DescMessage[] => ms.flatMap((m) => [m, ...all(m.nestedMessages)]);

  it("has an explicit style, variant by variant, for every Ledger API oneof", () => {
    const oneofs = files.flatMap((f) => all(f.messages)).flatMap((m) => m.oneofs.map((o) => ({ m, o })));
    expect(oneofs.length).toBe(14);
    for (const { m, o } of oneofs) {
      const style = ONEOF_STYLES[`${m.typeName}.${o.name}`];
      expect(style, `${m.typeName}.${o.name}`).toBeDefined();
      expect(Object.keys(style.variants).sort(), `${m.typeName}.${o.name}`).toEqual(o.fields.map((f) => f.name).sort());
    }
  });
});
