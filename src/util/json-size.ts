/**
 * About how long a value's JSON text is, without writing it: for weighing records that are already
 * decoded (a stream's page) at a fraction of the cost of `JSON.stringify`. Strings count their
 * length (escapes ignored), numbers and bigints a typical width, byte arrays their base64 length.
 * Within a few percent of the text for the ledger's records, whose weight is their strings.
 */
export function jsonSize(value: unknown): number {
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
      return 8;
    case "bigint":
      return 12;
    case "boolean":
      return 5;
    case "object":
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let n = 2 + value.length;
        for (const v of value) n += jsonSize(v);
        return n;
      }
      if (ArrayBuffer.isView(value)) return Math.ceil(value.byteLength / 3) * 4 + 2;
      return objectSize(value as Record<string, unknown>);
    default:
      return 0;
  }
}

function objectSize(o: Record<string, unknown>): number {
  let n = 2;
  for (const key in o) {
    if (!Object.hasOwn(o, key)) continue;
    n += key.length + 4 + jsonSize(o[key]);
  }
  return n;
}
