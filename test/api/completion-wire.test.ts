/** The direct completion encoder writes exactly what the generic completionToProto + toBinary path writes. */
import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { CompletionStreamResponseSchema } from "../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { completionToProto } from "../../src/api/convert/ledger-proto.js";
import { completionResponse, encodeCompletionResponse } from "../../src/api/grpc/completion-wire.js";
import { wireEncodingOf } from "../../src/api/grpc/wire-encoded.js";
import type { CompletionRecord, StatusRecord } from "../../src/ledger/records.js";

const identity = { participantId: "participant::1220ab", synchronizerId: "global-synchronizer::1220cd" };
const PARTY = "alice::1220" + "e".repeat(64);

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
];

describe("encodeCompletionResponse", () => {
  it.each(cases)("matches toBinary(completionToProto(...)): %s", (_name, c) => {
    expect(Buffer.from(encodeCompletionResponse(c, identity)).toString("hex")).toBe(Buffer.from(reference(c)).toString("hex"));
  });

  it("completionResponse: bytes for the native path, the same message for everyone else", () => {
    const c = { ...base, status: rejected };
    const item = completionResponse(c, identity);
    expect(wireEncodingOf(item)?.()).toEqual(reference(c));
    const viaFields = toBinary(CompletionStreamResponseSchema, create(CompletionStreamResponseSchema, item));
    expect(viaFields).toEqual(reference(c));
    expect(item.completionResponse).toEqual(item.completionResponse);
  });
});
