/**
 * The gRPC-over-HTTP/2 wire format (grpc/grpc PROTOCOL-HTTP2.md), as pure functions: message
 * framing (1-byte compressed flag + 4-byte big-endian length), `grpc-timeout`, `grpc-message`
 * percent-encoding and the status trailers with `grpc-status-details-bin` (a google.rpc.Status
 * with the error's details packed as Any, as Connect and grpc-java send it).
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { StatusSchema } from "../../../gen/google/rpc/status_pb.js";

export const FRAME_HEADER_BYTES = 5;

/** Requests above this are refused with RESOURCE_EXHAUSTED (gRPC's usual default is 4 MiB). */
export const MAX_REQUEST_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Prefixes an encoded message with the uncompressed frame header. */
export function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER_BYTES + message.byteLength);
  out[0] = 0;
  out.writeUInt32BE(message.byteLength, 1);
  out.set(message, FRAME_HEADER_BYTES);
  return out;
}

export interface Frame {
  readonly compressed: boolean;
  readonly data: Uint8Array;
}

/** Splits a complete request body into its frames; a truncated frame is a protocol error. */
export function splitFrames(body: Buffer): Frame[] {
  const frames: Frame[] = [];
  let at = 0;
  while (at < body.length) {
    if (body.length - at < FRAME_HEADER_BYTES) throw protocolError("truncated message frame header");
    const flags = body[at];
    const length = body.readUInt32BE(at + 1);
    const start = at + FRAME_HEADER_BYTES;
    if (length > MAX_REQUEST_MESSAGE_BYTES) {
      throw new ConnectError(`message of ${length} bytes exceeds the limit of ${MAX_REQUEST_MESSAGE_BYTES}`, Code.ResourceExhausted);
    }
    if (body.length - start < length) throw protocolError("truncated message");
    // Only bit 0 (compressed) is defined; grpc-go and grpc-java refuse any other bit with INTERNAL.
    if (flags > 1) throw protocolError(`unexpected message flags ${flags}`);
    frames.push({ compressed: (flags & 1) === 1, data: body.subarray(start, start + length) });
    at = start + length;
  }
  return frames;
}

const TIMEOUT = /^(\d{1,8})([HMSmun])$/;
const UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000_001 };

/** `grpc-timeout` in milliseconds; undefined when absent. */
export function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = TIMEOUT.exec(value);
  if (!m) throw new ConnectError(`protocol error: invalid grpc-timeout ${JSON.stringify(value)}`, Code.InvalidArgument);
  return Number(m[1]) * UNIT_MS[m[2]];
}

/**
 * `grpc-message` is percent-encoded UTF-8 where only bytes outside printable ASCII and `%` itself
 * are escaped (the spec's rule), so every gRPC client shows Canton's messages unchanged.
 */
export function encodeGrpcMessage(text: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(text)) return text;
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Any error as a ConnectError; anything unexpected becomes INTERNAL without echoing internals. */
export function asConnectError(e: unknown): ConnectError {
  if (e instanceof ConnectError) return e;
  return new ConnectError("internal error", Code.Internal, undefined, undefined, e);
}

export type StatusHeaders = Record<string, string>;

/** Trailer fields of a failed call; the same fields make a trailers-only response. */
export function errorStatus(error: ConnectError): StatusHeaders {
  const fields: StatusHeaders = {};
  error.metadata.forEach((value, key) => {
    fields[key] = value;
  });
  fields["grpc-status"] = String(error.code);
  fields["grpc-message"] = encodeGrpcMessage(error.rawMessage);
  if (error.details.length > 0) fields["grpc-status-details-bin"] = statusDetailsBin(error);
  return fields;
}

/** google.rpc.Status{code, message, details} in unpadded base64, as Connect and grpc-java write it. */
export function statusDetailsBin(error: ConnectError): string {
  const status = create(StatusSchema, {
    code: error.code,
    message: error.rawMessage,
    details: error.details.map((d) =>
      "desc" in d ? anyPack(d.desc, create(d.desc, d.value)) : { typeUrl: `type.googleapis.com/${d.type}`, value: d.value },
    ),
  });
  return Buffer.from(toBinary(StatusSchema, status)).toString("base64").replace(/=+$/, "");
}

export const OK_STATUS: StatusHeaders = Object.freeze({ "grpc-status": "0" }) as StatusHeaders;

function protocolError(what: string): ConnectError {
  return new ConnectError(`protocol error: ${what}`, Code.Internal);
}
