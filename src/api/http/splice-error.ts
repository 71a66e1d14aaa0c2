/**
 * Errors of the `/v0` and registry APIs in Splice's shape, `{"error": "..."}`, with the status
 * codes the OpenAPI files list. One exhaustive mapping from the wallet's error kinds; internal
 * errors answer with a generic message (the cause is logged, never echoed).
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import type { WalletErrorKind } from "../../wallet/index.js";
import { walletErrorBehind } from "../services/wallet/index.js";
import { BodyTooLarge } from "./http-io.js";
import { SpliceJsonError, toSpliceJson } from "./splice-json.js";
import { updated } from "../../util/extend.js";

export function httpStatusOfKind(kind: WalletErrorKind): number {
  switch (kind) {
    case "bad-request":
      return 400;
    case "unauthenticated": // no token, or not a valid one
      return 401;
    case "forbidden": // a valid token of the wrong user
      return 403;
    case "not-found":
      return 404;
    case "conflict": // e.g. a tracking id that was used already
      return 409;
    case "too-many-requests": // the same request is in flight: retry with back-off
      return 429;
    case "unimplemented":
      return 501;
    case "unavailable":
      return 503;
    case "internal":
      return 500;
  }
}

export interface SpliceErrorResponse {
  readonly status: number;
  readonly body: { [key: string]: unknown };
  /** Set when the error was not reported yet and should be logged. */
  readonly unexpected?: unknown;
}

export const spliceError = (status: number, error: string): SpliceErrorResponse => ({ status, body: { error } });

/**
 * The response for anything the Splice gateway or a `/v0` handler threw. `output` is the method's
 * response type: a 409 that carries a result of that type answers with it (Splice's
 * `createTransferPreapproval`).
 */
export function spliceErrorOf(e: unknown, output?: DescMessage): SpliceErrorResponse {
  if (e instanceof SpliceJsonError) return spliceError(400, `Invalid request: ${e.message}`);
  if (e instanceof BodyTooLarge) return spliceError(413, "Request entity too large");
  const err = walletErrorBehind(e);
  const status = httpStatusOfKind(err.kind);
  if (err.kind === "internal") {
    // ConnectErrors come from the handlers, which logged the cause already.
    return updated(spliceError(status, "internal server error"), { unexpected: e instanceof ConnectError ? undefined : e });
  }
  if (err.kind === "conflict" && output && e instanceof ConnectError) {
    const result = e.details.find((d): d is { desc: DescMessage; value: never } => "desc" in d && d.desc.typeName === output.typeName);
    if (result) return { status, body: toSpliceJson(result.desc, result.value) };
  }
  return spliceError(status, err.message);
}
