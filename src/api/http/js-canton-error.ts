/**
 * Errors of the JSON Ledger API: `JsCantonError` bodies with the HTTP status Canton derives from
 * the gRPC code; requests refused before decoding (HttpRefusal) get the same shape.
 */
import { ConnectError } from "@connectrpc/connect";
import { Category, errors, GrpcCode, isRetryable, LedgerError } from "../../ledger/errors.js";
import { extend } from "../../util/extend.js";

export function httpStatusOf(code: number): number {
  switch (code) {
    case GrpcCode.INVALID_ARGUMENT:
    case GrpcCode.FAILED_PRECONDITION:
    case GrpcCode.OUT_OF_RANGE:
      return 400;
    case GrpcCode.UNAUTHENTICATED:
      return 401;
    case GrpcCode.PERMISSION_DENIED:
      return 403;
    case GrpcCode.NOT_FOUND:
      return 404;
    case GrpcCode.ALREADY_EXISTS:
    case GrpcCode.ABORTED:
      return 409;
    case GrpcCode.RESOURCE_EXHAUSTED:
      return 429;
    case GrpcCode.CANCELLED:
      return 499;
    case GrpcCode.UNIMPLEMENTED:
      return 501;
    case GrpcCode.UNAVAILABLE:
      return 503;
    case GrpcCode.DEADLINE_EXCEEDED:
      return 504;
    default:
      return 500;
  }
}

/** Finds the LedgerError behind whatever a handler threw; unknown errors become INTERNAL. */
export function ledgerErrorOf(e: unknown): LedgerError {
  if (e instanceof LedgerError) return e;
  if (e instanceof ConnectError && e.cause instanceof LedgerError) return e.cause;
  return errors.internal("unexpected server error");
}

export interface JsCantonError {
  code: string;
  cause: string;
  correlationId?: string;
  traceId?: string;
  context: Record<string, string>;
  resources: [string, string][];
  errorCategory: number;
  grpcCodeValue: number;
  retryInfo?: string;
  definiteAnswer?: boolean;
}

export function jsCantonError(e: LedgerError, correlationId?: string): { status: number; body: JsCantonError } {
  return {
    status: httpStatusOf(e.grpcCode),
    body: {
      code: e.code,
      cause: e.message,
      ...(correlationId ? { correlationId } : {}),
      context: extend(e.context, { category: String(e.category) }),
      resources: e.resources.map(([k, v]) => [k, v]),
      errorCategory: e.category,
      grpcCodeValue: e.grpcCode,
      ...(isRetryable(e.category) ? { retryInfo: "1 second" } : {}),
      ...(e.definiteAnswer !== undefined ? { definiteAnswer: e.definiteAnswer } : {}),
    },
  };
}

/**
 * A request the JSON layer refuses before any service sees it (undecodable body or parameter,
 * unsupported media type, unknown route, oversized body or headers), with the HTTP status to
 * answer. It is still a JsCantonError: every `/v2` error has Canton's JSON shape.
 */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }

  toJsCantonError(correlationId?: string): { status: number; body: JsCantonError } {
    const [code, category] = refusalKind(this.status);
    const error = new LedgerError({ code, category, cause: this.message });
    return { status: this.status, body: jsCantonError(error, correlationId).body };
  }
}

/** The error id and category of a refusal: a 503 is worth retrying (Canton's transient failure), unlike a bad request. */
function refusalKind(status: number): [string, Category] {
  if (status === 404) return ["NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing];
  if (status === 503) return ["SERVICE_NOT_RUNNING", Category.TransientServerFailure];
  return ["INVALID_ARGUMENT", Category.InvalidIndependentOfSystemState];
}
