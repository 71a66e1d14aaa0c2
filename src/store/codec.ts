/**
 * JSON persistence of records: bigints are written as `{"$n":"123"}` so that offsets, times and
 * Daml Int64s survive a round trip through any document store or SQLite TEXT column.
 */
export function encodeRecord(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? { $n: v.toString() } : v));
}

export function decodeRecord<T>(text: string): T {
  return JSON.parse(text, (_k, v) =>
    v !== null && typeof v === "object" && typeof v.$n === "string" && Object.keys(v).length === 1 ? BigInt(v.$n) : v,
  ) as T;
}
