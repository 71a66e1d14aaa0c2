/**
 * The one mapping from wallet errors to Connect/gRPC errors for the `/v0` services. The
 * ConnectError keeps the WalletError as `cause`, so the JSON gateway answers with the same kind;
 * internal errors are logged here once and never echoed to clients.
 */
import { create, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "pino";
import { WalletError, walletErrorOf, type WalletErrorKind } from "../../../wallet/index.js";

export function connectCodeOf(kind: WalletErrorKind): Code {
  switch (kind) {
    case "bad-request":
      return Code.InvalidArgument;
    case "unauthenticated":
      return Code.Unauthenticated;
    case "forbidden":
      return Code.PermissionDenied;
    case "not-found":
      return Code.NotFound;
    case "conflict":
      return Code.AlreadyExists;
    case "too-many-requests":
      return Code.ResourceExhausted;
    case "unimplemented":
      return Code.Unimplemented;
    case "unavailable":
      return Code.Unavailable;
    case "internal":
      return Code.Internal;
  }
}

/** For a ConnectError that carries no WalletError (raised by Connect itself): its kind by code. */
export function kindOfConnectCode(code: Code): WalletErrorKind {
  switch (code) {
    case Code.InvalidArgument:
    case Code.FailedPrecondition:
    case Code.OutOfRange:
      return "bad-request";
    case Code.Unauthenticated:
      return "unauthenticated";
    case Code.PermissionDenied:
      return "forbidden";
    case Code.NotFound:
      return "not-found";
    case Code.AlreadyExists:
    case Code.Aborted:
      return "conflict";
    case Code.ResourceExhausted:
      return "too-many-requests";
    case Code.Unimplemented:
      return "unimplemented";
    case Code.Unavailable:
    case Code.DeadlineExceeded:
    case Code.Canceled:
      return "unavailable";
    case Code.Internal:
    case Code.Unknown:
    case Code.DataLoss:
      return "internal";
  }
}

/** The WalletError behind anything a `/v0` handler threw. */
export function walletErrorBehind(e: unknown): WalletError {
  if (e instanceof ConnectError) {
    if (e.cause instanceof WalletError) return e.cause;
    return new WalletError(kindOfConnectCode(e.code), e.rawMessage, { cause: e });
  }
  return walletErrorOf(e);
}

export function toWalletConnectError(e: unknown, log: Logger): ConnectError {
  if (e instanceof ConnectError) return e;
  const err = walletErrorOf(e);
  if (err.kind === "internal") {
    log.error({ err: err.cause ?? err }, "internal error in a /v0 handler");
    return new ConnectError("internal server error", Code.Internal, undefined, undefined, err);
  }
  return new ConnectError(err.message, connectCodeOf(err.kind), undefined, undefined, err);
}

/**
 * A 409 that answers with a result, as `POST /v0/wallet/transfer-preapproval` does when the
 * preapproval exists: gRPC ALREADY_EXISTS with the result as error detail, JSON 409 with the
 * result as body.
 */
export function conflictWithResult<S extends DescMessage>(schema: S, init: MessageInitShape<S>, message: string): ConnectError {
  const err = new WalletError("conflict", message);
  return new ConnectError(message, Code.AlreadyExists, undefined, [{ desc: schema, value: create(schema, init) }], err);
}
