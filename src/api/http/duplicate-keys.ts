/**
 * Duplicate object keys in a JSON text. `JSON.parse` keeps the last one, so
 * `{"amount":"-1","amount":"0.5"}` would pass a check the first one fails; Canton's and Splice's
 * parsers refuse such bodies, and so do we. One linear pass, no recursion (bodies may nest deeply).
 * It runs on every JSON request, after `JSON.parse`: strings are skipped with `indexOf` (a
 * prepared transaction's base64 is most of an execute's body), a key without escapes is its text
 * as is, and an object's few keys are compared in a list until there are enough for a set.
 */

/** Keys of an open object: a list while short, a set past SHORT (so many keys stay linear). */
type Keys = string[] | Set<string>;
const SHORT = 16;

/** The first key that appears twice in one object, or undefined. The text must be valid JSON. */
export function duplicateKeyOf(text: string): string | undefined {
  // The keys of each open object; `null` for an open array.
  const open: (Keys | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (expectKey) {
        const key = keyAt(text, i, end);
        const keys = open[open.length - 1]!;
        if (Array.isArray(keys) ? keys.includes(key) : keys.has(key)) return key;
        if (!Array.isArray(keys)) keys.add(key);
        else if (keys.push(key) > SHORT) open[open.length - 1] = new Set(keys);
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT) {
      open.push([]);
      expectKey = true;
    } else if (c === OPEN_ARRAY) {
      open.push(null);
      expectKey = false;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
      expectKey = false;
    } else if (c === COMMA) {
      expectKey = open[open.length - 1] != null;
    }
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The key whose quotes are at `start` and `end`: its text, unescaped only if it has escapes. */
function keyAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  return raw.includes("\\") ? (JSON.parse(text.slice(start, end + 1)) as string) : raw;
}

/** Index of the quote closing the string that opens at `start`: the first not escaped. */
function endOfString(text: string, start: number): number {
  for (let from = start + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
