/** Live data: every view polls the /v0 API (≤ 2 s, issue #15) and refreshes at once after an action. */
import { useCallback, useEffect, useState } from "preact/hooks";

export const pollMs = 1500;

export interface Polled<T> {
  readonly data: T | undefined;
  readonly error: string | undefined;
  readonly refresh: () => void;
}

/**
 * Polls `load` while mounted, the next load `pollMs` after the last one answered (never two at
 * once: an answer slower than the period, a long list another party filled, must not pile up
 * requests); `refresh` reloads at once.
 */
export function usePoll<T>(load: () => Promise<T>, deps: unknown[]): Polled<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () =>
      load()
        .then(
          (d) => live && (setData(d), setError(undefined)),
          (e: Error) => live && setError(e.message),
        )
        .finally(() => {
          if (live) timer = setTimeout(run, pollMs);
        });
    run();
    return () => ((live = false), clearTimeout(timer));
  }, [...deps, tick]);
  return { data, error, refresh: useCallback(() => setTick((n) => n + 1), []) };
}
