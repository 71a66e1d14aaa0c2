/**
 * Ledger time. Wall-clock by default; in static mode it moves only when `TimeService.SetTime`
 * says so, which makes tests of expiries, rounds and fees run in milliseconds.
 */
export interface Clock {
  readonly mode: "wall" | "static";
  /** Microseconds since the epoch. */
  now(): bigint;
}

export class WallClock implements Clock {
  readonly mode = "wall";
  private last = 0n;
  now(): bigint {
    // Monotonic even if the system clock steps back: ledger time never decreases.
    const t = BigInt(Date.now()) * 1000n;
    this.last = t > this.last ? t : this.last;
    return this.last;
  }
}

export class StaticClock implements Clock {
  readonly mode = "static";
  private readonly listeners = new Set<(now: bigint) => void>();
  constructor(private current: bigint) {}
  /** Called after each successful `set`, so time-driven automation can react at once. */
  onChange(listener: (now: bigint) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  now(): bigint {
    return this.current;
  }
  /** Sets the time if `expected` is the current time (compare-and-set as in Canton's SetTime). */
  set(expected: bigint, next: bigint): "ok" | "mismatch" | "backwards" {
    if (expected !== this.current) return "mismatch";
    if (next < this.current) return "backwards";
    this.current = next;
    for (const l of this.listeners) l(next);
    return "ok";
  }
}
