/**
 * Duplicate object keys in a JSON text. `JSON.parse` keeps the last one, so
 * `{"amount":"-1","amount":"0.5"}` would pass a check the first one fails; Canton's and Splice's
 * parsers refuse such bodies, and so do we. One linear pass, no recursion (bodies may nest deeply).
 */

/** The first key that appears twice in one object, or undefined. The text must be valid JSON. */
export function duplicateKeyOf(text: string): string | undefined {
  // One set of keys per open object; `null` for an open array.
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") {
      open.push(new Set());
      expectKey = true;
    } else if (c === "[") {
      open.push(null);
      expectKey = false;
    } else if (c === "}" || c === "]") {
      open.pop();
      expectKey = false;
    } else if (c === ",") {
      expectKey = open[open.length - 1] instanceof Set;
    } else if (c === '"') {
      const end = endOfString(text, i);
      if (expectKey) {
        const keys = open[open.length - 1] as Set<string>;
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    }
  }
  return undefined;
}

/** Index of the quote closing the string that opens at `start`. */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i;
}
