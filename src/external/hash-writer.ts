/**
 * The byte encoder of Canton's transaction hashing: big-endian fixed-width integers, length-prefixed
 * bytes and strings, counted lists, 0x00/0x01 optionals. Writes into one growing buffer, so encoding
 * a node costs one allocation per doubling and one SHA-256 pass, linear in its size.
 *
 * The optional `label` arguments and `context` only matter to the TracingHashWriter (verbose
 * hashing); here they are ignored, so the hashing path pays a constant argument, never a string
 * built per call. `sub` gives the writer of a nested encoding (a node, an input contract) that is
 * hashed on its own and written here as its 32-byte hash.
 */
import { sha256 } from "./canton-hash.js";

const utf8 = new TextEncoder();

/**
 * Writers whose digest was taken, kept for the next encodings: a hash makes a writer per node and
 * per input contract, and allocating a fresh 1 KiB buffer each time was a tenth of its cost.
 */
const idle: HashWriter[] = [];
const MAX_IDLE = 16;
const MAX_KEPT_BUFFER = 64 * 1024;

export class HashWriter {
  /** A writer to encode one hash input; `digest()` ends it. */
  static create(): HashWriter {
    return idle.pop() ?? new HashWriter();
  }

  private buf = new Uint8Array(1024);
  private view = new DataView(this.buf.buffer);
  private at = 0;

  private reserve(n: number): void {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number, _label?: string): this {
    this.reserve(1);
    this.buf[this.at++] = b;
    return this;
  }

  bool(b: boolean): this {
    return b ? this.byte(1, "true (bool)") : this.byte(0, "false (bool)");
  }

  int32(n: number): this {
    this.reserve(4);
    this.view.setInt32(this.at, n | 0, false);
    this.at += 4;
    return this;
  }

  /** int64/uint64 alike: the same 8 bytes, two's complement. */
  int64(n: bigint): this {
    this.reserve(8);
    this.view.setBigInt64(this.at, BigInt.asIntN(64, n), false);
    this.at += 8;
    return this;
  }

  /** Bytes without a length prefix (hashes, seeds, the purpose). */
  raw(b: Uint8Array, _label?: string): this {
    this.reserve(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
    return this;
  }

  bytes(b: Uint8Array, label?: string): this {
    return this.int32(b.length).raw(b, label);
  }

  /** `_kind` names the string in a trace: "string", "numeric", "party". */
  string(s: string, _kind?: string): this {
    // UTF-8 is at most 3 bytes per UTF-16 unit: reserve, encode in place, then write the length.
    const n = s.length;
    this.reserve(4 + n * 3);
    const buf = this.buf;
    let at = this.at + 4;
    let i = 0;
    // Names, parties, numerics and ids are short ASCII: copied here, without a view per string.
    if (n <= 256) for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[at++] = c;
    }
    if (i < n) at += utf8.encodeInto(i === 0 ? s : s.slice(i), buf.subarray(at)).written;
    this.view.setInt32(this.at, at - this.at - 4, false);
    this.at = at;
    return this;
  }

  list<T>(xs: readonly T[], each: (x: T) => void): this {
    this.int32(xs.length);
    for (const x of xs) each(x);
    return this;
  }

  optional<T>(x: T | undefined, each: (x: T) => void): this {
    if (x === undefined) return this.byte(0, "None");
    this.byte(1, "Some");
    each(x);
    return this;
  }

  /** A comment line of the trace (what the next bytes are). */
  context(_text: string): void {}

  /** The writer of a nested encoding. */
  sub(): HashWriter {
    return HashWriter.create();
  }

  /** The SHA-256 of what was written. The writer is done: it may be handed out again. */
  digest(): Uint8Array {
    const d = sha256(this.buf.subarray(0, this.at));
    if (Object.getPrototypeOf(this) === HashWriter.prototype && idle.length < MAX_IDLE && this.buf.length <= MAX_KEPT_BUFFER) {
      this.at = 0;
      idle.push(this);
    }
    return d;
  }
}
