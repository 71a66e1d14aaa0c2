/**
 * A minimal one-pass protobuf writer for hand-written encoders of hot messages. Every
 * length-delimited field (string or nested message) gets one length byte up front; when the
 * content turns out to be 128 bytes or longer, it is moved right to make room for the longer
 * varint (a short memmove), so each string is encoded exactly once, natively, and no sizes are
 * computed in advance. Output is canonical protobuf (minimal varints), byte-identical to
 * protobuf-es's toBinary for the same fields in the same order.
 *
 * It writes into one shared scratch buffer (encoders are synchronous) and `finish` copies the
 * result out. `varint` takes non-negative integers of at most 2^53 (callers fall back otherwise);
 * the bigint methods take any 64-bit value.
 */
export const LEN = 2;
export const VARINT = 0;
const FIXED64 = 1;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Buffer's own UTF-8 writer without `write`'s argument juggling (~20% of this writer's time).
 * Undocumented but present in every Node release; `write` is the fallback.
 */
type Utf8Writer = (this: Buffer, s: string, offset: number) => number;
const nativeUtf8Write = (Buffer.prototype as unknown as { utf8Write?: Utf8Writer }).utf8Write;
const utf8Write: (buf: Buffer, s: string, offset: number) => number = nativeUtf8Write
  ? (buf, s, offset) => nativeUtf8Write.call(buf, s, offset)
  : (buf, s, offset) => buf.write(s, offset, "utf8");

export class ProtoWriter {
  private buf = scratch;
  private pos = 0;

  tag(field: number, wireType: number): this {
    this.ensure(5);
    this.writeVarint(field * 8 + wireType);
    return this;
  }

  varint(v: number): this {
    this.ensure(10);
    this.writeVarint(v);
    return this;
  }

  /** A varint field unless 0 (proto3 default, not written). */
  varintField(field: number, v: number): this {
    return v === 0 ? this : this.tag(field, VARINT).varint(v);
  }

  /** A string field unless "" (proto3 default, not written). */
  stringField(field: number, s: string): this {
    return s === "" ? this : this.stringAlways(field, s);
  }

  /** A string field even when empty (repeated fields, map entries). */
  stringAlways(field: number, s: string): this {
    this.tag(field, LEN);
    this.ensure(1 + 3 * s.length);
    const start = this.pos + 1;
    this.settle(start, utf8Write(this.buf, s, start));
    return this;
  }

  /** A bytes field unless empty (proto3 default, not written). */
  bytesField(field: number, b: Uint8Array): this {
    if (b.length === 0) return this;
    this.tag(field, LEN).varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** A bool field even when false (oneof members). */
  boolAlways(field: number, b: boolean): this {
    return this.tag(field, VARINT).varint(b ? 1 : 0);
  }

  /** An int32 field even when 0; a negative one is its 64-bit two's complement, ten bytes. */
  int32Always(field: number, n: number): this {
    return n >= 0 ? this.tag(field, VARINT).varint(n) : this.uint64Always(field, BigInt(n));
  }

  /** A uint64 (or int64) field even when 0, as its 64-bit two's complement. */
  uint64Always(field: number, n: bigint): this {
    this.tag(field, VARINT);
    let v = BigInt.asUintN(64, n);
    if (v <= MAX_SAFE) return this.varint(Number(v));
    this.ensure(10);
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  /** A sint64 field even when 0 (zigzag). */
  sint64Always(field: number, n: bigint): this {
    const x = BigInt.asIntN(64, n);
    return this.uint64Always(field, (x << 1n) ^ (x >> 63n));
  }

  /** An sfixed64 field even when 0. */
  sfixed64Always(field: number, n: bigint): this {
    this.tag(field, FIXED64);
    this.ensure(8);
    this.buf.writeBigInt64LE(BigInt.asIntN(64, n), this.pos);
    this.pos += 8;
    return this;
  }

  /** Opens a nested message field; returns the mark to pass to `end` once its fields are written. */
  begin(field: number): number {
    this.tag(field, LEN);
    this.ensure(1);
    return ++this.pos;
  }

  end(mark: number): this {
    this.settle(mark, this.pos - mark);
    return this;
  }

  /** The bytes written, in a buffer of their own. */
  finish(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }

  /** Content of `n` bytes starts at `start`, its one reserved length byte just before it. */
  private settle(start: number, n: number): void {
    if (n < 0x80) {
      this.buf[start - 1] = n;
      this.pos = start + n;
      return;
    }
    const extra = n < 0x4000 ? 1 : n < 0x200000 ? 2 : n < 0x10000000 ? 3 : 4;
    this.ensure(start + n + extra - this.pos);
    this.buf.copyWithin(start + extra, start, start + n);
    this.pos = start - 1;
    this.writeVarint(n);
    this.pos = start + extra + n;
  }

  private writeVarint(v: number): void {
    const b = this.buf;
    while (v >= 0x80) {
      b[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    b[this.pos++] = v;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
    scratch = bigger;
  }
}
