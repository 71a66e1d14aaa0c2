/**
 * How the automation loop retries a step that failed (Splice's `RetryFor.Automation`, reference
 * A.0): an error the ledger may not repeat on a fresh state — contention, a contract archived
 * meanwhile, a state-dependent refusal — is retried, the first time at once on the new state, then
 * after 200 ms doubling up to 5 s, at most 35 times; after that, and for an error no retry can cure
 * (malformed command, authorization, an internal error), the step waits for its next natural run.
 */
import { Category, LedgerError } from "../ledger/errors.js";

export const MAX_RETRIES = 35;
const INITIAL_DELAY_MS = 200;
const MAX_DELAY_MS = 5000;

const NEVER_CURED_BY_RETRY = new Set<Category>([
  Category.InvalidIndependentOfSystemState,
  Category.SecurityAlert,
  Category.AuthInterceptorInvalidAuthenticationCredentials,
  Category.InsufficientPermission,
  Category.SystemInternalAssumptionViolated,
  Category.InternalUnsupportedOperation,
]);

export function isRetryable(error: unknown): boolean {
  return error instanceof LedgerError && !NEVER_CURED_BY_RETRY.has(error.category);
}

/** Delay before retry number `attempt` (1-based), or undefined once the retries are spent. */
export function retryDelayMs(attempt: number): number | undefined {
  if (attempt > MAX_RETRIES) return undefined;
  if (attempt === 1) return 0;
  return Math.min(INITIAL_DELAY_MS * 2 ** (attempt - 2), MAX_DELAY_MS);
}
