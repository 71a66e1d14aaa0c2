/**
 * Liveness and readiness, as Splice's validator answers `/livez` and `/readyz`: live while the
 * process serves HTTP at all; ready while the store answers a real read (not a cached value) in
 * time and the automation runs. An orchestrator stops routing to a node that is not ready and
 * restarts one that is not live.
 */
export interface ReadinessChecks {
  /** A read that must reach the database (SQLite file, MongoDB server). */
  readonly storeReachable: () => Promise<unknown>;
  readonly automationRunning: () => boolean;
  readonly shuttingDown: () => boolean;
}

export interface Readiness {
  readonly ready: boolean;
  /** What is wrong, one line per failed check; empty when ready. */
  readonly problems: readonly string[];
}

const STORE_TIMEOUT_MS = 2_000;

export async function checkReadiness(checks: ReadinessChecks): Promise<Readiness> {
  const problems: string[] = [];
  if (checks.shuttingDown()) problems.push("shutting down");
  if (!checks.automationRunning()) problems.push("automation is not running");
  const store = await withTimeout(checks.storeReachable(), STORE_TIMEOUT_MS).then(
    () => undefined,
    (e: unknown) => `store unavailable: ${e instanceof Error ? e.message : String(e)}`,
  );
  if (store) problems.push(store);
  return { ready: problems.length === 0, problems };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
