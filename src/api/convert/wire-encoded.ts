/**
 * A response value may carry its own protobuf encoding: the native gRPC path (grpc-call.ts)
 * writes those bytes instead of building and serialising a message; every other consumer
 * (Connect, the JSON gateway) ignores the symbol and reads the value's fields as usual.
 */
export const WIRE_ENCODING = Symbol("ccwallet.wireEncoding");

export interface WireEncoded {
  /** The message's protobuf bytes, equal to toBinary of the value's fields. */
  [WIRE_ENCODING](): Uint8Array;
}

/** The value's own encoding, or undefined when it has none. */
export function wireBytesOf(value: unknown): Uint8Array | undefined {
  return typeof value === "object" && value !== null && WIRE_ENCODING in value ? (value as WireEncoded)[WIRE_ENCODING]() : undefined;
}
