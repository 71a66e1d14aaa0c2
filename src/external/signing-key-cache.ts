/**
 * Parsed public keys by their DER SPKI. Importing a key into node:crypto costs more than verifying
 * a signature with it, and an external party signs many transactions with the same key. Keys are
 * immutable values of the topology, so an entry is never stale; the oldest are dropped past `max`.
 */
import { signingKeyFromSpki, type KeyKind, type SigningKey } from "./signing-key.js";

export class SigningKeyCache {
  private readonly keys = new Map<string, SigningKey>();

  constructor(private readonly max = 10_000) {}

  get(kind: KeyKind, spkiHex: string): SigningKey {
    let key = this.keys.get(spkiHex);
    if (!key) {
      key = signingKeyFromSpki(kind, Buffer.from(spkiHex, "hex"));
      if (this.keys.size >= this.max) this.keys.delete(this.keys.keys().next().value!);
      this.keys.set(spkiHex, key);
    }
    return key;
  }
}
