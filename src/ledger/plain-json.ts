/**
 * The JSON of a value without bigints, or undefined if it holds one; kept per object, because a
 * transaction's nodes are serialized once to price their traffic and again to be stored. Only for
 * values nobody mutates once built (interpreted nodes are final).
 */
const plainJsonOf = new WeakMap<object, string>();

export function plainJson(value: object): string | undefined {
  let json = plainJsonOf.get(value);
  if (json === undefined) {
    json = stringified(value);
    if (json !== undefined) plainJsonOf.set(value, json);
  }
  return json;
}

/**
 * `plainJson(value)` for its last reader (the store, which writes a transaction once): the text is
 * forgotten, so it dies with the write instead of living on with the value (a transaction lives
 * until its answer, and 11 KB of JSON per transfer then outlived young-generation GC).
 */
export function takePlainJson(value: object): string | undefined {
  const kept = plainJsonOf.get(value);
  if (kept === undefined) return stringified(value);
  plainJsonOf.delete(value);
  return kept;
}

function stringified(value: object): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return undefined;
  }
}
