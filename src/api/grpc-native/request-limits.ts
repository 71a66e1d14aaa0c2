/**
 * What the native gRPC path holds of requests still arriving: a cap per message (far lower for
 * the methods anyone may call without a token), a budget across every call in flight, and a time
 * to send the request in. A hostile review held 3.8 GB with 240 unfinished 15 MiB bodies from
 * four connections with no token, on a public method, for as long as it liked.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { MAX_REQUEST_MESSAGE_BYTES } from "./grpc-wire.js";

/** The cap for a method anyone may call without a token: its requests are small, an attacker's need not be. */
export const MAX_PUBLIC_REQUEST_BYTES = 1024 * 1024;
/** Request bytes all calls in flight may hold together, before the next is refused. */
export const REQUEST_BYTES_IN_FLIGHT = 256 * 1024 * 1024;
/** A call whose request has not fully arrived within this is ended (DEADLINE_EXCEEDED). */
export const REQUEST_RECEIVE_MS = 30_000;

export interface RequestLimits {
  /** The most bytes a request of `method` may have, framed or decompressed. */
  maxRequestBytes(method: DescMethod): number;
  readonly inFlight: RequestBudget;
  readonly receiveMs: number;
}

/** Bytes taken by requests still arriving or not yet decoded, and given back once they are. */
export class RequestBudget {
  private used = 0;

  constructor(readonly max: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.max) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }

  get held(): number {
    return this.used;
  }
}

export function requestLimits(maxRequestBytes: (method: DescMethod) => number = () => MAX_REQUEST_MESSAGE_BYTES): RequestLimits {
  return { maxRequestBytes, inFlight: new RequestBudget(REQUEST_BYTES_IN_FLIGHT), receiveMs: REQUEST_RECEIVE_MS };
}
