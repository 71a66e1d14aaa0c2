/**
 * The one mapping from ledger errors to Connect/gRPC errors. A LedgerError keeps its code,
 * Canton's message format and `ErrorInfo`/`RequestInfo`/`ResourceInfo` details; anything else
 * becomes INTERNAL without echoing internals to the client.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "pino";
import { errors, LedgerError } from "../../../ledger/errors.js";
import { statusOf } from "../../../ledger/engine.js";
import { statusDetails } from "../../convert/ledger-proto.js";
import { randomHex } from "../../../ledger/ids.js";

/** Where unexpected errors are reported (the node's pino logger). */
export type ErrorLog = Pick<Logger, "error">;

export function toConnectError(e: unknown, log: ErrorLog, correlationId = ""): ConnectError {
  if (e instanceof ConnectError) return e;
  const err = e instanceof LedgerError ? e : errors.internal("unexpected server error");
  if (!(e instanceof LedgerError)) log.error({ err: e }, "internal error");
  const status = statusOf(err, correlationId || randomHex(8));
  return new ConnectError(status.message, err.grpcCode as number as Code, undefined, statusDetails(status) as never, err);
}

/** Runs a unary handler body, turning any error into a ConnectError. */
export async function guard<T>(log: ErrorLog, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    throw toConnectError(e, log);
  }
}

/** Same for server-streaming handlers. */
export async function* guardStream<T>(log: ErrorLog, body: () => AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* body();
  } catch (e) {
    throw toConnectError(e, log);
  }
}
