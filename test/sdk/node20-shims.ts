/**
 * Client-side shims for the Canton wallet SDK, which targets Node 22: on Node 20 it needs
 * `Set.prototype.union` and `Object.groupBy`. Loaded only by the SDK suite's vitest project; the
 * node under test never sees them.
 */
declare global {
  interface Set<T> {
    union<U>(other: ReadonlySet<U>): Set<T | U>;
  }
  interface ObjectConstructor {
    groupBy<K extends PropertyKey, T>(items: Iterable<T>, key: (item: T, index: number) => K): Partial<Record<K, T[]>>;
  }
}

if (typeof (Set.prototype as { union?: unknown }).union !== "function") {
  Object.defineProperty(Set.prototype, "union", {
    configurable: true,
    writable: true,
    value<T, U>(this: Set<T>, other: ReadonlySet<U>): Set<T | U> {
      const out = new Set<T | U>(this);
      for (const v of other) out.add(v);
      return out;
    },
  });
}

if (typeof (Object as { groupBy?: unknown }).groupBy !== "function") {
  Object.defineProperty(Object, "groupBy", {
    configurable: true,
    writable: true,
    value<K extends PropertyKey, T>(items: Iterable<T>, key: (item: T, index: number) => K): Partial<Record<K, T[]>> {
      const out: Partial<Record<K, T[]>> = Object.create(null);
      let i = 0;
      for (const item of items) (out[key(item, i++)] ??= []).push(item);
      return out;
    },
  });
}

export {};
