/**
 * Runs tasks one at a time per key (e.g. onboarding of one user name), others in parallel.
 * In-process only: the store's own atomic writes settle races between processes.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Whether a task for `key` is running or queued. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }
}
