/**
 * The error taxonomy of the wallet and validator apps: what went wrong, in the terms the Splice
 * APIs answer with (`{"error": "..."}` and a status code). Use cases throw these; the transports
 * map a kind to an HTTP status (api/http/splice-error.ts) and to a gRPC code
 * (api/services/wallet/wallet-connect-error.ts), each with one exhaustive switch.
 */
import { Category, LedgerError } from "../ledger/errors.js";

export type WalletErrorKind =
  | "bad-request"
  | "unauthenticated"
  | "forbidden"
  | "not-found"
  | "conflict"
  | "too-many-requests"
  | "unimplemented"
  | "unavailable"
  | "internal";

export class WalletError extends Error {
  constructor(
    readonly kind: WalletErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "WalletError";
  }
}

/** Named constructors, so call sites read as what happened. */
export const walletErrors = {
  badRequest: (message: string) => new WalletError("bad-request", message),
  unauthenticated: (message: string) => new WalletError("unauthenticated", message),
  forbidden: (message: string) => new WalletError("forbidden", message),
  notFound: (message: string) => new WalletError("not-found", message),
  conflict: (message: string) => new WalletError("conflict", message),
  /** The same request (idempotency key) is being processed: retry later. */
  inFlight: (message: string) => new WalletError("too-many-requests", message),
  unimplemented: (message: string) => new WalletError("unimplemented", message),
  unavailable: (message: string) => new WalletError("unavailable", message),
  internal: (message: string, cause?: unknown) => new WalletError("internal", message, { cause }),
};

/** The kind of a ledger error, by its Canton error category. */
export function kindOfCategory(category: Category): WalletErrorKind {
  switch (category) {
    case Category.InvalidIndependentOfSystemState: // malformed input, Daml authorization
    case Category.InvalidGivenCurrentSystemStateOther: // interpretation errors (e.g. insufficient funds)
    case Category.InvalidGivenCurrentSystemStateSeekAfterEnd:
    case Category.SecurityAlert:
      return "bad-request";
    case Category.AuthInterceptorInvalidAuthenticationCredentials:
      return "unauthenticated";
    case Category.InsufficientPermission:
      return "forbidden";
    case Category.InvalidGivenCurrentSystemStateResourceMissing: // unknown contract, party, user
      return "not-found";
    case Category.InvalidGivenCurrentSystemStateResourceExists: // duplicate command, existing user
      return "conflict";
    case Category.ContentionOnSharedResources: // a concurrent command used the same contracts: retry
      return "too-many-requests";
    case Category.TransientServerFailure:
    case Category.DeadlineExceededRequestStateUnknown:
      return "unavailable";
    case Category.InternalUnsupportedOperation:
      return "unimplemented";
    case Category.SystemInternalAssumptionViolated:
      return "internal";
  }
}

/**
 * Any error as a WalletError: ledger errors keep their message and get the kind of their category;
 * anything else is internal, with the original as `cause` for the log and never shown to clients.
 */
export function walletErrorOf(e: unknown): WalletError {
  if (e instanceof WalletError) return e;
  if (e instanceof LedgerError) return new WalletError(kindOfCategory(e.category), e.message, { cause: e });
  return walletErrors.internal("internal server error", e);
}
