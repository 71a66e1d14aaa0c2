/** The direct completion encoder writes exactly what the generic completionToProto + toBinary path writes. */
import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { CompletionStreamResponseSchema } from "../../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { completionToProto } from "../../../src/api/convert/ledger-proto.js";
import { completionResponse, encodeCompletionResponse } from "../../../src/api/convert/completion-wire.js";
import { wireBytesOf } from "../../../src/api/convert/wire-encoded.js";
import type { CompletionRecord, StatusRecord } from "../../../src/ledger/records.js";

const identity = { participantId: "participant::1220ab", synchronizerId: "global-synchronizer::1220cd" };
const PARTY = "alice::1220" + "e".repeat(64);

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const reference = (c: CompletionRecord) =>
  toBinary(CompletionStreamResponseSchema, create(CompletionStreamResponseSchema, { completionResponse: { case: "completion", value: completionToProto(c, identity) } }));

const base: CompletionRecord = {
  offset: 42n,
  commandId: "cmd-1",
  userId: "alice",
  actAs: [PARTY],
  submissionId: "sub-1",
  updateId: "1220" + "f".repeat(64),
  status: { code: 0, message: "", errorCode: "", category: 0, context: {}, resources: [], correlationId: "sub-1" },
  deduplication: { kind: "none" },
  recordTime: 1_763_000_000_123_456n,
};
const rejected: StatusRecord = {
  code: 6,
  message: "DUPLICATE_COMMAND(10,sub-1): A command with the given command id has already been successfully processed",
  errorCode: "DUPLICATE_COMMAND",
  category: 10,
  context: { changeId: '["alice",["p"],"cmd-1"]', existing_submission_id: "", "7": "numeric key first", category: "overridden" },
  resources: [
    ["CONTRACT_ID", "00abc"],
    ["PARTY", "ünïcødé"],
  ],
  correlationId: "sub-1",
  definiteAnswer: false,
};

const cases: [string, CompletionRecord][] = [
  ["accepted", base],
  ["accepted without status or update id", { ...base, status: undefined, updateId: undefined }],
  ["rejected with every detail", { ...base, updateId: undefined, status: rejected }],
  ["rejected, definite answer true, no correlation id", { ...base, status: { ...rejected, definiteAnswer: true, correlationId: "", resources: [] } }],
  ["rejected without definite answer", { ...base, status: { ...rejected, definiteAnswer: undefined, context: {} } }],
  ["dedup by offset", { ...base, deduplication: { kind: "offset", offset: 7n } }],
  ["dedup by offset 0", { ...base, deduplication: { kind: "offset", offset: 0n } }],
  ["dedup by duration", { ...base, deduplication: { kind: "duration", seconds: 600n, nanos: 5 } }],
  ["dedup by zero duration", { ...base, deduplication: { kind: "duration", seconds: 0n, nanos: 0 } }],
  ["several actAs, record time before 1970, offset 0", { ...base, actAs: [PARTY, "bob::1220aa"], recordTime: -1_500_001n, offset: 0n }],
  ["empty strings", { ...base, commandId: "", submissionId: "", userId: "", actAs: [] }],
  ["empty actAs entries are still written", { ...base, actAs: ["", PARTY] }],
  ["UTF-8: 2-, 3- and 4-byte characters, lone surrogates", { ...base, commandId: "é€😀\ud800x\udc00", status: { ...rejected, message: "ünï €😀 \ud83d", context: { "ключ": "值😀" } } }],
  ["long strings (multi-byte lengths)", { ...base, commandId: "c".repeat(300), status: { ...rejected, message: "m".repeat(20_000) } }],
  ["a message larger than the writer's scratch buffer", { ...base, status: { ...rejected, message: "€".repeat(40_000), context: { big: "x".repeat(70_000) } } }],
  ["large offset and duration", { ...base, offset: 2n ** 40n, deduplication: { kind: "duration", seconds: 2n ** 35n, nanos: 999_999_999 } }],
  ["int64 beyond 2^53 (general path)", { ...base, offset: 2n ** 60n }],
];

describe("encodeCompletionResponse", () => {
  it.each(cases)("matches toBinary(completionToProto(...)): %s", (_name, c) => {
    expect(hex(encodeCompletionResponse(c, identity))).toBe(hex(reference(c)));
  });

  it("completionResponse: bytes for the native path, the same message for everyone else", () => {
    const c = { ...base, status: rejected };
    const item = completionResponse(c, identity);
    expect(hex(wireBytesOf(item)!)).toBe(hex(reference(c)));
    const viaFields = toBinary(CompletionStreamResponseSchema, create(CompletionStreamResponseSchema, item));
    expect(hex(viaFields)).toBe(hex(reference(c)));
    expect(item.completionResponse).toEqual(item.completionResponse);
  });
});
