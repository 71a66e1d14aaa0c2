/**
 * CompletionStreamResponse straight from a stored completion to protobuf bytes, for catch-up
 * reads of many completions. The general path (completionToProto, then toBinary) builds message
 * objects, packs each error detail into an Any with its own toBinary and walks everything
 * reflectively: ~10 µs per rejection completion here, more than reading and parsing the row.
 * This writes the same bytes (same fields, same order; test/api/completion-wire.test.ts
 * compares them) with one BinaryWriter pass.
 *
 * `completionResponse` gives the service implementation one value for every transport: the
 * native gRPC path takes the bytes (see wire-encoded.ts), Connect and the JSON gateway read the
 * `completionResponse` field, which builds the message only then.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import type { CompletionStreamResponseSchema } from "../../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import type { Completion } from "../../../gen/com/daml/ledger/api/v2/completion_pb.js";
import type { CompletionRecord, StatusRecord } from "../../ledger/records.js";
import { completionToProto, type LedgerIdentity } from "../convert/ledger-proto.js";
import { WIRE_ENCODING, type WireEncoded } from "./wire-encoded.js";

const TYPE_URL = "type.googleapis.com/google.rpc.";

type CompletionResponseInit = MessageInitShape<typeof CompletionStreamResponseSchema> & WireEncoded;

/** The stream item for one completion: bytes for the native path, a message for the others. */
export function completionResponse(c: CompletionRecord, identity: LedgerIdentity): CompletionResponseInit {
  let message: Completion | undefined;
  return {
    [WIRE_ENCODING]: () => encodeCompletionResponse(c, identity),
    get completionResponse() {
      return { case: "completion" as const, value: (message ??= completionToProto(c, identity)) };
    },
  };
}

/** CompletionStreamResponse{completion = 1}, byte for byte what toBinary writes for completionToProto. */
export function encodeCompletionResponse(c: CompletionRecord, identity: LedgerIdentity): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).fork();
  writeCompletion(w, c, identity);
  w.join();
  return w.finish();
}

function writeCompletion(w: BinaryWriter, c: CompletionRecord, identity: LedgerIdentity): void {
  str(w, 1, c.commandId);
  w.tag(2, WireType.LengthDelimited).fork();
  if (c.status && c.status.code !== 0) writeStatus(w, c.status);
  w.join();
  str(w, 3, c.updateId ?? "");
  str(w, 4, c.userId);
  for (const p of c.actAs) w.tag(5, WireType.LengthDelimited).string(p);
  str(w, 6, c.submissionId);
  const d = c.deduplication;
  if (d.kind === "offset") w.tag(7, WireType.Varint).int64(d.offset);
  else if (d.kind === "duration") {
    w.tag(8, WireType.LengthDelimited).fork();
    int64(w, 1, d.seconds);
    int32(w, 2, d.nanos);
    w.join();
  }
  int64(w, 10, c.offset);
  w.tag(11, WireType.LengthDelimited).fork();
  str(w, 1, identity.synchronizerId);
  w.tag(2, WireType.LengthDelimited).fork();
  const seconds = c.recordTime / 1_000_000n - (c.recordTime % 1_000_000n < 0n ? 1n : 0n);
  int64(w, 1, seconds);
  int32(w, 2, Number(c.recordTime - seconds * 1_000_000n) * 1000);
  w.join();
  w.join();
}

/** google.rpc.Status with Canton's details (see statusDetails in ledger-proto.ts): ErrorInfo, RequestInfo, ResourceInfo. */
function writeStatus(w: BinaryWriter, s: StatusRecord): void {
  int32(w, 1, s.code);
  str(w, 2, s.message);
  anyStart(w, "ErrorInfo");
  str(w, 1, s.errorCode);
  // The same object statusDetails builds, so the entries come in the same order.
  const metadata: Record<string, string> = { ...s.context, category: String(s.category) };
  if (s.definiteAnswer !== undefined) metadata.definite_answer = String(s.definiteAnswer);
  for (const key in metadata) mapEntry(w, key, metadata[key]);
  anyEnd(w);
  if (s.correlationId) {
    anyStart(w, "RequestInfo");
    str(w, 1, s.correlationId);
    anyEnd(w);
  }
  for (const [resourceType, resourceName] of s.resources) {
    anyStart(w, "ResourceInfo");
    str(w, 1, resourceType);
    str(w, 2, resourceName);
    anyEnd(w);
  }
}

/** Opens details[] += Any{type_url, value = <the detail message>}; close with anyEnd. */
function anyStart(w: BinaryWriter, type: string): void {
  w.tag(3, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(TYPE_URL + type);
  w.tag(2, WireType.LengthDelimited).fork();
}

function anyEnd(w: BinaryWriter): void {
  w.join();
  w.join();
}

/** ErrorInfo.metadata (field 3) entry: key and value are always written. */
function mapEntry(w: BinaryWriter, key: string, value: string): void {
  w.tag(3, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(key);
  w.tag(2, WireType.LengthDelimited).string(value);
  w.join();
}

function str(w: BinaryWriter, field: number, value: string): void {
  if (value !== "") w.tag(field, WireType.LengthDelimited).string(value);
}

function int64(w: BinaryWriter, field: number, value: bigint): void {
  if (value !== 0n) w.tag(field, WireType.Varint).int64(value);
}

function int32(w: BinaryWriter, field: number, value: number): void {
  if (value !== 0) w.tag(field, WireType.Varint).int32(value);
}
