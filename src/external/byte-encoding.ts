/**
 * Strict hex and base64 decoding for keys, signatures and transactions that clients send. Node's
 * `Buffer.from(s, "hex" | "base64")` silently drops what it cannot read, so a malformed string would
 * become different bytes instead of an error; these reject it instead.
 */

export class MalformedEncoding extends Error {
  constructor(readonly encoding: "hex" | "base64", message: string) {
    super(message);
    this.name = "MalformedEncoding";
  }
}

/** Hex of either case, even length; `""` is zero bytes. */
export function decodeHex(s: string): Uint8Array {
  if (s.length % 2 !== 0) throw new MalformedEncoding("hex", `odd number of hex digits (${s.length})`);
  if (!/^[0-9a-fA-F]*$/.test(s)) throw new MalformedEncoding("hex", "not a hex string");
  return new Uint8Array(Buffer.from(s, "hex"));
}

/** Standard base64 with padding (the Ledger API's bytes in JSON). */
export function decodeBase64(s: string): Uint8Array {
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) throw new MalformedEncoding("base64", "not a padded base64 string");
  const bytes = Buffer.from(s, "base64");
  // Non-zero bits after the last full byte make a second spelling of the same bytes: not canonical.
  if (bytes.toString("base64") !== s) throw new MalformedEncoding("base64", "not a canonical base64 string");
  return new Uint8Array(bytes);
}
