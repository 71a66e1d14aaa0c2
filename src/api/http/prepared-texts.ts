/**
 * Prepared transactions this process answered lately, by the base64 text it answered: an execute
 * sends back exactly what its prepare got, and a lookup of the text costs far less than decoding
 * it. The message is the one the prepare built (equal to what the bytes decode to, and never
 * mutated), so the execute can also recognize it (PreparedInterpretations) instead of hashing it
 * again. The first request that carries the text takes the entry (a replay decodes the bytes):
 * kept until evicted, the messages of the last few thousand prepares stayed alive, and every
 * major GC marked them.
 *
 * Keyed by a sample of the text rather than the text: a Map hashes every character of a string
 * key the first time it meets that string (~2 µs for a small transaction's 1.6 KB), and both the
 * prepare's text and the execute's are met once. Every 8th character, mixed with the length, is
 * what the key sees: of a prepared transaction's own UUID it samples 6 characters (~16 bits of
 * hex), and of its preparation time in µs a few more, so two texts the node prepared share a key
 * about twice in 4,096 (measured). A hit is compared in full, so a text that only shares the key
 * is a miss; a later text with the same key replaces the earlier, whose execute then decodes its
 * bytes, as after an eviction: a collision costs a decode, never a wrong answer.
 */
import type { PreparedTransaction } from "../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { BoundedMap, type BoundedMapLimits } from "../../ledger/bounded-map.js";

interface Prepared {
  readonly text: string;
  readonly message: PreparedTransaction;
}

export class PreparedTexts {
  private readonly byKey: BoundedMap<number, Prepared>;

  constructor(limits: BoundedMapLimits) {
    this.byKey = new BoundedMap(limits);
  }

  remember(text: string, message: PreparedTransaction): void {
    // The text and the message it decodes to, about twice its length.
    this.byKey.set(sampledKey(text), { text, message }, 2 * text.length);
  }

  /** The message prepared as exactly `text`, forgotten; undefined if there is none. */
  take(text: string): PreparedTransaction | undefined {
    const key = sampledKey(text);
    const prepared = this.byKey.get(key);
    if (prepared?.text !== text) return undefined;
    this.byKey.delete(key);
    return prepared.message;
  }
}

/** FNV-1a over the length and every 8th character, from the end (where the UUID is near in small transactions). */
export function sampledKey(text: string): number {
  let h = Math.imul(0x811c9dc5 ^ text.length, 0x01000193);
  for (let i = text.length - 1; i >= 0; i -= 8) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
