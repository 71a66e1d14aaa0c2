/** A user action: its failure goes to the page's alert (the server's own text), its success refreshes. */
import { useState } from "preact/hooks";

export interface Action {
  readonly run: (f: () => Promise<unknown>) => Promise<void>;
  readonly error: string | undefined;
  readonly busy: boolean;
}

export function useAction(after: () => void = () => {}): Action {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (f: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await f();
      after();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy };
}
