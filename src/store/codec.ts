/**
 * JSON persistence of records: bigints are written as `{"$n":"123"}` so that offsets, times and
 * Daml Int64s survive a round trip through any document store or SQLite TEXT column.
 */
export function encodeRecord(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? { $n: v.toString() } : v));
}

export function decodeRecord<T>(text: string): T {
  // A walk over the parsed tree instead of a JSON.parse reviver: same result, about 3× faster
  // (the reviver is called for every value, strings included; see bench/).
  return reviveBigints(JSON.parse(text)) as T;
}

/** Replaces, bottom-up and in place, every object that is exactly `{"$n": string}` by its bigint. */
function reviveBigints(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === "object") v[i] = reviveBigints(x);
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  let keys = 0;
  for (const k of Object.keys(o)) {
    keys++;
    const x = o[k];
    if (x !== null && typeof x === "object") o[k] = reviveBigints(x);
  }
  return keys === 1 && typeof o.$n === "string" ? BigInt(o.$n) : o;
}
