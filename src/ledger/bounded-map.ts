/**
 * A cache of work the node can redo: it forgets its oldest entries past a count or a total size
 * (sizes the caller estimates), and does not keep an entry bigger than `maxEntryBytes` at all, so
 * clients that send large requests and never come back cannot make it hold more than `maxBytes`.
 */
export interface BoundedMapLimits {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
}

export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly bytes: number }>();
  private bytes = 0;

  constructor(private readonly limits: BoundedMapLimits) {}

  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.limits.maxEntryBytes) return;
    if (this.entries.size >= this.limits.maxEntries || this.bytes + bytes > this.limits.maxBytes) this.evict(bytes);
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
  }

  /**
   * Drops the oldest entries down to 7/8 of the limits, in one pass: a Map's oldest key is found
   * by walking past the holes its deletions left, so dropping one per insert made each insert
   * walk them all again.
   */
  private evict(incoming: number): void {
    const entries = Math.floor((this.limits.maxEntries * 7) / 8);
    const bytes = Math.floor((this.limits.maxBytes * 7) / 8) - incoming;
    for (const [key, e] of this.entries) {
      if (this.entries.size <= entries && this.bytes <= bytes) break;
      this.entries.delete(key);
      this.bytes -= e.bytes;
    }
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** The entry's value, forgotten. */
  take(key: K): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.bytes -= e.bytes;
    return e.value;
  }

  delete(key: K): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
