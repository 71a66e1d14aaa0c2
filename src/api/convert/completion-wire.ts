/**
 * CompletionStreamResponse straight from a stored completion to protobuf bytes, for catch-up
 * reads of many completions. The general path (completionToProto, then toBinary) builds message
 * objects, packs each error detail into an Any with its own toBinary and walks everything
 * reflectively: ~10 µs per rejection completion here, more than reading and parsing the row.
 * This writes the same bytes (same fields, same order; test/api/completion-wire.test.ts
 * compares them) in one pass over one buffer, or with protobuf-es's BinaryWriter for
 * out-of-range integers.
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
import { completionToProto, type LedgerIdentity } from "./ledger-proto.js";
import { ProtoWriter, VARINT } from "./proto-writer.js";
import { WIRE_ENCODING, type WireEncoded } from "./wire-encoded.js";

const TYPE_URL = "type.googleapis.com/google.rpc.";

type CompletionResponseInit = MessageInitShape<typeof CompletionStreamResponseSchema> & WireEncoded;

/** The stream item for one completion: bytes for the native path, a message for the others. */
export function completionResponse(c: CompletionRecord, identity: LedgerIdentity): CompletionResponseInit {
  return new CompletionItem(c, identity);
}

// A class, not an object literal with a getter: one such item per streamed completion, and a
// literal with accessors and a symbol key costs several times a plain allocation.
class CompletionItem implements WireEncoded {
  private message: Completion | undefined;

  constructor(
    private readonly record: CompletionRecord,
    private readonly identity: LedgerIdentity,
  ) {}

  [WIRE_ENCODING](): Uint8Array {
    return encodeCompletionResponse(this.record, this.identity);
  }

  get completionResponse(): { case: "completion"; value: Completion } {
    return { case: "completion", value: (this.message ??= completionToProto(this.record, this.identity)) };
  }
}

/** CompletionStreamResponse{completion = 1}, byte for byte what toBinary writes for completionToProto. */
export function encodeCompletionResponse(c: CompletionRecord, identity: LedgerIdentity): Uint8Array {
  return encodeFast(c, identity) ?? encodeGeneral(c, identity);
}

// ---------------------------------------------------------------------------------------------
// Fast path: one pass with ProtoWriter (proto-writer.ts). Covers every completion whose integers
// are non-negative and below 2^53 (all real ones).

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

function encodeFast(c: CompletionRecord, identity: LedgerIdentity): Uint8Array | undefined {
  const d = c.deduplication;
  if (c.recordTime < 0n || c.recordTime > MAX || c.offset < 0n || c.offset > MAX) return undefined;
  if ((d.kind === "offset" && (d.offset < 0n || d.offset > MAX)) || (d.kind === "duration" && (d.seconds < 0n || d.seconds > MAX || d.nanos < 0))) return undefined;
  const status = c.status && c.status.code !== 0 ? c.status : undefined;
  if (status && (status.code < 0 || status.category < 0)) return undefined;
  const micros = Number(c.recordTime);
  const seconds = Math.floor(micros / 1_000_000);

  const w = new ProtoWriter();
  const completion = w.begin(1);
  w.stringField(1, c.commandId);
  const st = w.begin(2);
  if (status) writeStatusFast(w, status);
  w.end(st);
  w.stringField(3, c.updateId ?? "").stringField(4, c.userId);
  for (const p of c.actAs) w.stringAlways(5, p);
  w.stringField(6, c.submissionId);
  if (d.kind === "offset") w.tag(7, VARINT).varint(Number(d.offset));
  else if (d.kind === "duration") {
    const dd = w.begin(8);
    w.varintField(1, Number(d.seconds)).varintField(2, d.nanos);
    w.end(dd);
  }
  w.varintField(10, Number(c.offset));
  const sync = w.begin(11);
  w.stringField(1, identity.synchronizerId);
  const ts = w.begin(2);
  w.varintField(1, seconds).varintField(2, (micros - seconds * 1_000_000) * 1000);
  w.end(ts).end(sync).end(completion);
  return w.finish();
}

/**
 * ErrorInfo.metadata as statusDetails (ledger-proto.ts) builds it, `{ ...context, category,
 * definite_answer? }`, entry by entry in that object's key order, without building it.
 */
function forEachMetadata(s: StatusRecord, visit: (key: string, value: string) => void): void {
  let category = false;
  let definite = s.definiteAnswer === undefined;
  for (const key in s.context) {
    if (key === "category") {
      category = true;
      visit(key, String(s.category));
    } else if (key === "definite_answer" && !definite) {
      definite = true;
      visit(key, String(s.definiteAnswer));
    } else visit(key, s.context[key]);
  }
  if (!category) visit("category", String(s.category));
  if (!definite) visit("definite_answer", String(s.definiteAnswer));
}

/** The same object, for the general path. */
function metadataOf(s: StatusRecord): Record<string, string> {
  const metadata: Record<string, string> = {};
  forEachMetadata(s, (k, v) => (metadata[k] = v));
  return metadata;
}

const ERROR_INFO_URL = TYPE_URL + "ErrorInfo";
const REQUEST_INFO_URL = TYPE_URL + "RequestInfo";
const RESOURCE_INFO_URL = TYPE_URL + "ResourceInfo";

/** details[] += Any{type_url, value}: returns the marks to close with `w.end(value).end(any)`. */
function beginAny(w: ProtoWriter, typeUrl: string): [number, number] {
  const any = w.begin(3);
  w.stringField(1, typeUrl);
  return [any, w.begin(2)];
}

function writeStatusFast(w: ProtoWriter, s: StatusRecord): void {
  w.varintField(1, s.code).stringField(2, s.message);
  let [any, value] = beginAny(w, ERROR_INFO_URL);
  w.stringField(1, s.errorCode);
  forEachMetadata(s, (key, v) => {
    const entry = w.begin(3);
    w.stringAlways(1, key).stringAlways(2, v);
    w.end(entry);
  });
  w.end(value).end(any);
  if (s.correlationId) {
    [any, value] = beginAny(w, REQUEST_INFO_URL);
    w.stringField(1, s.correlationId);
    w.end(value).end(any);
  }
  for (const [type, name] of s.resources) {
    [any, value] = beginAny(w, RESOURCE_INFO_URL);
    w.stringField(1, type).stringField(2, name);
    w.end(value).end(any);
  }
}

// ---------------------------------------------------------------------------------------------
// General path (any int64), with protobuf-es's BinaryWriter.

function encodeGeneral(c: CompletionRecord, identity: LedgerIdentity): Uint8Array {
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
  const metadata = metadataOf(s);
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
