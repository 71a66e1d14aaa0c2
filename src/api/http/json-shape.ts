/** Small pieces both JSON dialect decoders use to say where and why a value does not fit. */

export const joinKey = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** What a JSON value is, for an error message (strings shown, cut at 40 characters). */
export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  return `${typeof v} ${String(v)}`;
}

export const expected = (what: string, v: unknown) => `expected ${what}, got ${describe(v)}`;
